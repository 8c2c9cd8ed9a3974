"""ResNet-18 or a small GPT-2 through torch.compile(backend="npusim").

    python3 examples/python/torch_compile.py --model resnet18 [--mode full] [--config tpuv3-like]
    python3 examples/python/torch_compile.py --model gpt2      # 2 layers, hidden 768, sequence 32

Needs torch >= 2.5 with Triton, torchvision (resnet18) or Hugging Face transformers
(gpt2), and npusim installed (pip install --no-build-isolation ./python). Runs on the
GPU when one is visible, else on the CPU (CUDA_VISIBLE_DEVICES="" to choose it); either
way every Triton kernel Inductor writes runs on the simulated NPU. Prints the largest
difference of the outputs from eager PyTorch and the kernels' cycles added up.
"""

import argparse

import torch

import npusim


def build(name):
    torch.manual_seed(0)
    if name == "resnet18":
        import torchvision

        return torchvision.models.resnet18(), torch.randn(1, 3, 224, 224)
    import transformers

    config = transformers.GPT2Config(n_layer=2, n_embd=768, n_head=12, n_positions=64)
    return transformers.GPT2LMHeadModel(config), torch.randint(0, config.vocab_size, (1, 32))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", choices=["resnet18", "gpt2"], default="resnet18")
    parser.add_argument("--mode", default="full", choices=["full", "functional", "reference"])
    parser.add_argument("--config", default="tpuv3-like")
    a = parser.parse_args()
    device = "cuda" if torch.cuda.is_available() else "cpu"
    model, x = build(a.model)
    model, x = model.eval().to(device), x.to(device)
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    with torch.no_grad():
        eager = model(x)
        out = torch.compile(model, backend="npusim", options={"mode": a.mode, "config": a.config})(x)
    if a.model == "gpt2":
        eager, out = eager.logits, out.logits
    report = npusim.last_report()
    print(f"model={a.model} device={device} max_diff={(out - eager).abs().max().item():.3g} "
          f"kernels={report['kernels_run']} cycles={report['cycles']}")


if __name__ == "__main__":
    main()
