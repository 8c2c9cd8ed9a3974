"""Full fp32 precision for a capture, set for every backend and checked on the device.

A bundle's fingerprints are fp32 values; npusim computes its reference in fp32 or
wider. A GPU that rounds convolution or matmul inputs to TF32 (10 mantissa bits)
produces values a few 1e-4 away, and its own replay reproduces them, so only a check
against wider arithmetic can tell.

PyTorch has two ways to say "no TF32". The legacy switches
(``torch.backends.cuda.matmul.allow_tf32``, ``torch.backends.cudnn.allow_tf32``) and,
since 2.9, a precision per backend and operator (``torch.backends.fp32_precision``,
``torch.backends.cuda.matmul.fp32_precision``, ``torch.backends.cudnn.fp32_precision``,
``torch.backends.cudnn.conv.fp32_precision``, ``torch.backends.cudnn.rnn.fp32_precision``,
``torch.backends.mkldnn...``). In the newer API the legacy ``cudnn.allow_tf32 = False``
only resets conv and rnn to "none", which inherits from the backend's and then the
generic setting, so what it means depends on settings made elsewhere. Asking the legacy
getter after only the new setters were used can raise (the two disagree about the
cuDNN flag), so both are set: legacy first, then every new one to "ieee".
"""

# (attribute path under torch.backends, value): the new per-backend API.
_NEW_API = (
    ("fp32_precision", "ieee"),
    ("cuda.matmul.fp32_precision", "ieee"),
    ("cudnn.fp32_precision", "ieee"),
    ("cudnn.conv.fp32_precision", "ieee"),
    ("cudnn.rnn.fp32_precision", "ieee"),
    ("mkldnn.fp32_precision", "ieee"),
    ("mkldnn.matmul.fp32_precision", "ieee"),
    ("mkldnn.conv.fp32_precision", "ieee"),
    ("mkldnn.rnn.fp32_precision", "ieee"),
)
_LEGACY = (("cuda.matmul.allow_tf32", False), ("cudnn.allow_tf32", False))


def _has(obj, name):
    # torch.backends.cuda.matmul raises AssertionError for a name it does not know
    try:
        getattr(obj, name)
    except Exception:  # noqa: BLE001
        return False
    return True


def _resolve(torch, path):
    *outer, name = path.split(".")
    obj = torch.backends
    for o in outer:
        if not _has(obj, o):
            return None, name
        obj = getattr(obj, o)
    return obj, name


def set_full_fp32(torch, log):
    """Sets every fp32 precision switch this torch has to full fp32 and returns what
    reads back, {switch: value} (a switch this torch lacks is left out; one that
    refuses reads back as the error)."""
    state = {}
    try:
        torch.set_float32_matmul_precision("highest")
    except Exception as e:  # noqa: BLE001
        log(f"  could not set float32_matmul_precision = highest: {e!r}")
    present = []
    for path, value in _LEGACY + _NEW_API:
        obj, name = _resolve(torch, path)
        if obj is None or not _has(obj, name):
            continue
        present.append((path, obj, name))
        try:
            setattr(obj, name, value)
        except Exception as e:  # noqa: BLE001
            log(f"  could not set torch.backends.{path} = {value!r}: {e!r}")
    for path, obj, name in present:
        try:
            state[path] = getattr(obj, name)
        except Exception as e:  # noqa: BLE001
            state[path] = f"unreadable: {e}"
    try:
        state["float32_matmul_precision"] = torch.get_float32_matmul_precision()
    except Exception as e:  # noqa: BLE001
        state["float32_matmul_precision"] = f"unreadable: {e}"
    log("  fp32 precision: " + ", ".join(f"{k}={v}" for k, v in state.items()))
    return state


def reduced_precision_settings(state):
    """The switches of set_full_fp32's read-back that do not say full fp32."""
    bad = []
    for path, value in state.items():
        if path == "float32_matmul_precision":
            ok = value == "highest"
        elif path.endswith("allow_tf32"):
            ok = value is False
        else:
            # "none" inherits (from the backend's setting, then the generic one)
            ok = value in ("ieee", "none")
        if not ok:
            bad.append(f"torch.backends.{path}={value}" if path != "float32_matmul_precision"
                       else f"float32_matmul_precision={value}")
    return bad


def probe(torch, device, to_device=None):
    """Runs a matmul, convolutions (forward, input and weight gradients, contiguous and
    channels-last, 1x1 and 3x3) and an LSTM on `device` with inputs of 1 + 2^-12, which
    TF32 rounds to 1, and compares them with float64 on the CPU. Every partial sum is
    exact in fp32, so full fp32 matches to rounding and TF32 is off by about 2.4e-4
    relative. Returns the probes that differ, each naming the operation and its error.
    `to_device` makes the device's fp32 tensor of a float64 one (a test stands in for
    a device that rounds its inputs)."""
    import torch.nn.functional as F

    if to_device is None:
        def to_device(t):
            return t.float().to(device)

    problems = []
    v = 1.0 + 2.0 ** -12

    def compare(what, got, want, tol=1e-5):
        got = got.detach().to("cpu", torch.float64)
        err = ((got - want).abs() / want.abs().clamp_min(1e-30)).max().item()
        if not err <= tol:
            problems.append(f"{what} on {device}: relative error {err:.3g} against float64 "
                            f"(full fp32 gives under {tol:g}; TF32 about 2.4e-4)")

    a = torch.full((8, 64), v, dtype=torch.float64)
    b = torch.ones(64, 8, dtype=torch.float64)
    compare("matmul", to_device(a) @ to_device(b), a @ b)

    for k, layout in ((1, torch.contiguous_format), (3, torch.channels_last),
                      (1, torch.channels_last)):
        x = torch.full((2, 48, 4, 4), v, dtype=torch.float64)
        w = torch.full((8, 48, k, k), v, dtype=torch.float64)
        gy = torch.ones(2, 8, 4, 4, dtype=torch.float64)
        pad = k // 2
        want = torch.ops.aten.convolution_backward(
            gy, x, w, None, [1, 1], [pad, pad], [1, 1], False, [0, 0], 1, [True, True, False])
        want_y = F.conv2d(x, w, padding=pad)
        xd = to_device(x).contiguous(memory_format=layout)
        wd = to_device(w).contiguous(memory_format=layout)
        gyd = to_device(gy).contiguous(memory_format=layout)
        got = torch.ops.aten.convolution_backward(
            gyd, xd, wd, None, [1, 1], [pad, pad], [1, 1], False, [0, 0], 1, [True, True, False])
        name = f"{k}x{k} convolution ({'channels-last' if layout is torch.channels_last else 'contiguous'})"
        compare(name, F.conv2d(xd, wd, padding=pad), want_y)
        compare(name + " input gradient", got[0], want[0])
        compare(name + " weight gradient", got[1], want[1])

    lstm = torch.nn.LSTM(16, 16, batch_first=True).double()
    with torch.no_grad():
        for p in lstm.parameters():
            p.fill_(v / 16)
    x = torch.full((2, 4, 16), v, dtype=torch.float64)
    want = lstm(x)[0]
    lstm_d = torch.nn.LSTM(16, 16, batch_first=True).to(device)
    lstm_d.load_state_dict({k: to_device(t) for k, t in lstm.state_dict().items()})
    with torch.no_grad():
        compare("LSTM", lstm_d(to_device(x))[0], want, tol=2e-5)
    return problems
