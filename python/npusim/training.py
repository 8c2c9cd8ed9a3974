"""A training step as people write it, for capture: the model (with its loss) under
``torch.compile``, ``loss.backward()``, and an optimizer step compiled too.

    compiled_loss = torch.compile(lambda *a: loss(model(*inputs), *targets))
    optimizer.zero_grad(set_to_none=True)
    loss = compiled_loss(...)          # AOTAutograd's forward graph
    loss.backward()                    # its backward graph (and autograd's eager glue)
    compiled_step()                    # torch.compile(optimizer.step): the optimizer's graph

Recorded, the step is every graph call in that order with the eager aten calls between
them (the gradient of the loss, gradient accumulation) as library calls. The optimizer's
state exists after the first step; the capture warms up with two steps (so that nothing
compiles while recording), then sets the state to what a fresh optimizer's first step
starts from (zeros, step count 0), which is where the eager reference starts.
"""

import dataclasses

OPTIMIZERS = ("sgd", "adamw")


@dataclasses.dataclass
class OptimizerSpec:
    name: str = "sgd"
    lr: float = 0.01
    momentum: float = 0.9  # sgd
    weight_decay: float = 0.01  # adamw

    def describe(self):
        d = {"name": self.name, "lr": self.lr}
        if self.name == "sgd":
            d["momentum"] = self.momentum
        else:
            d.update(betas=[0.9, 0.999], eps=1e-8, weight_decay=self.weight_decay)
        return d


def make_optimizer(torch, spec, params):
    """SGD with momentum, or AdamW with its step counts on the parameters' GPU
    (capturable), so that no optimizer state lives on the host."""
    params = list(params)
    if spec.name == "sgd":
        return torch.optim.SGD(params, lr=spec.lr, momentum=spec.momentum)
    if spec.name == "adamw":
        on_gpu = bool(params) and params[0].is_cuda  # capturable needs CUDA tensors
        return torch.optim.AdamW(params, lr=spec.lr, weight_decay=spec.weight_decay,
                                 capturable=on_gpu)
    raise ValueError(f"unknown optimizer {spec.name!r}: one of {', '.join(OPTIMIZERS)}")


def state_inits(torch, optimizer, params_by_id):
    """(name, tensor, init, role) for every tensor of the optimizer's state: all start at
    zero, as a fresh optimizer's first step sees them (SGD's momentum buffer b = m b + g
    is g when b = 0, AdamW's moments and step count are zeros)."""
    out = []
    for p, st in optimizer.state.items():
        pname = params_by_id[id(p)]
        for k, v in sorted(st.items()):
            if isinstance(v, torch.Tensor):
                out.append((f"optimizer.{pname}.{k}", v, {"kind": "constant", "value": 0},
                            f"optimizer state {k}"))
    return out


def state_outputs(torch, optimizer, params_by_id):
    """(output name, tensor) for every tensor of the optimizer's state after its step, named
    after its input (``updated.optimizer.NAME.KEY``) and sorted by name, so that a compiled and
    an eager optimizer list theirs alike: the moments are the step's results as much as the
    parameters, and an Adam-family step's first moment is what verification measures its
    rounding against (docs/bundle-format.md "Optimizer steps")."""
    return sorted(((f"updated.{name}", t) for name, t, _, _ in state_inits(torch, optimizer, params_by_id)),
                  key=lambda named: named[0])


class CompiledStep:
    """The training step of a model, its loss and optimizer, compiled as users do."""

    def __init__(self, torch, model, loss_of_output, split_call_args, inputs, targets,
                 optimizer, compile_fn, between_graphs=False):
        self.torch = torch
        self.between_graphs = between_graphs  # record the eager code between forward graphs
        self.model = model
        self.inputs, self.targets = inputs, targets
        self.optimizer = optimizer
        n_in = len(inputs)

        def forward_loss(*flat):
            pos, kw = split_call_args(list(flat[:n_in]))
            return loss_of_output(model(*pos, **kw), *flat[n_in:])

        def optimizer_step():
            optimizer.step()

        self.compiled_loss = compile_fn(forward_loss)
        self.compiled_step = compile_fn(optimizer_step)

    def run(self, rec=None):
        """One step; with a recorder in record mode, every graph and eager call is recorded."""
        self.optimizer.zero_grad(set_to_none=True)
        args = list(self.inputs) + list(self.targets)
        if rec is None:
            loss = self.compiled_loss(*args)
            loss.backward()
            self.compiled_step()
            return loss
        with rec.eager_region("backward"):
            with rec.compiled_region("forward", self.between_graphs):
                loss = self.compiled_loss(*args)
            loss.backward()
            with rec.compiled_region("optimizer"):
                self.compiled_step()
        return loss


# A gradient element this small against its tensor's largest is rounding (fp32 sums of
# many terms: a few ulps of the largest times their count).
ROUNDING = 1e-6


def eager_step(torch, model, loss_of_output, split_call_args, inputs, targets, spec,
               warnings=None, state=None):
    """The same step in eager PyTorch with a fresh optimizer: the reference. Returns the
    loss (detached); with a list `state`, appends the optimizer's state after the step to it
    (state_outputs). With AdamW, appends to `warnings` the parameters with gradient
    elements within rounding of zero (0 < |g| <= ROUNDING * max |g|): AdamW's first step
    moves each of those by about lr * sign(g), so which way is decided by rounding and a
    replay that rounds differently (any other order of the sums) ends elsewhere within
    lr. Verification judges such elements by AdamW's bound (npusim.optimizer_bound,
    docs/bundle-format.md "Optimizer steps"); SGD does not amplify them."""
    opt = make_optimizer(torch, spec, model.parameters())
    opt.zero_grad(set_to_none=True)
    pos, kw = split_call_args(list(inputs))
    loss = loss_of_output(model(*pos, **kw), *targets)
    loss.backward()
    if spec.name == "adamw" and warnings is not None:
        for name, p in model.named_parameters():
            if p.grad is None or p.grad.numel() == 0:
                continue
            g = p.grad.detach().abs()
            tiny = int(((g > 0) & (g <= ROUNDING * g.max())).sum())
            if tiny:
                warnings.append(f"AdamW: {tiny} of {g.numel()} gradient elements of {name} are "
                                "within rounding of zero; their first-step updates (about lr "
                                "each) have the sign rounding gives them: verification judges "
                                "them by the AdamW bound")
    opt.step()
    if state is not None:
        state += state_outputs(torch, opt, {id(p): n for n, p in model.named_parameters()})
    return loss.detach()
