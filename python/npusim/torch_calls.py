"""The aten calls of a graph compiled with ``backend="npusim"`` on npusim's library
(docs/python.md, "Library calls"; needs torch).

While a compiled graph runs, a dispatch mode sees every aten call Inductor's code makes
outside its Triton kernels: ``extern_kernels.mm``/``addmm``/``bmm``/``convolution``,
the aten fallbacks (attention, sort, topk, batch norm, ...), in-place operators
(``copy_`` of a mutated input, ``zero_``, ``index_put_``). A call npusim's library
implements runs there (``npusim.run_call``): its written tensors are, as in a bundle's
call step, first the operator's mutable arguments in schema order (``out=``, or ``self``
of an in-place operator), then its new results in result order. Every other call runs
as it would, on the tensors' device, and is reported, per operator with the reason, in
``last_report()["fallbacks"]``. Allocation, view and metadata operators are neither.
"""

import contextlib

from . import api

class Call:
    """One aten call as npusim's library takes it: ``name`` (the bundle's op name),
    ``values`` (the arguments in schema order, ``out=`` left out), ``writes`` (the
    tensors it writes, in the bundle's order), ``result`` (what the operator returns
    to its caller) and ``updated`` (those it reads and writes: ``self`` of an in-place
    operator)."""

    def __init__(self, name, values, writes, result, updated):
        self.name, self.values, self.writes, self.result = name, values, writes, result
        self.updated = updated  # the tensors it reads and writes (self of an in-place operator)


def _library_names():
    global _LIBRARY
    if _LIBRARY is None:
        _LIBRARY = set(api._native().library_operators())
    return _LIBRARY


_LIBRARY = None


def _op_name(func):
    """The operator's name in npusim's library, or None: ``aten.NAME`` where the overload
    takes the default overload's arguments, else ``aten.NAME.OVERLOAD`` (as a bundle
    names it, docs/bundle-format.md)."""
    from .recorder import _same_args_as_default

    qual = f"{func.namespace}.{func.overloadpacket.__name__}"
    candidates = [qual if _same_args_as_default(func) else f"{qual}.{func._overloadname}",
                  f"{qual}.{func._overloadname}"]
    return next((n for n in candidates if n in _library_names()), None)


def is_computation(func):
    """False for the allocation, view and metadata operators and for those that compute
    no tensor (asserts, ``.item()``): no fallback to report."""
    from .recorder import SKIP_OPS

    qual = f"{func.namespace}.{func.overloadpacket.__name__}"
    if qual in SKIP_OPS or func.namespace == "profiler":
        return False
    schema = func._schema
    if any(a.alias_info is not None and a.alias_info.is_write for a in schema.arguments):
        return True
    returns_tensors = any("Tensor" in str(r.type) for r in schema.returns)
    return returns_tensors and not any(r.alias_info is not None for r in schema.returns)


def _encoded(value, torch):
    """A call argument as run_call takes it (tensors as they are), or raises ValueError."""
    from .recorder import TORCH_TO_BUNDLE

    if isinstance(value, torch.Tensor):
        if value.is_sparse or value.is_quantized or value.dtype not in TORCH_TO_BUNDLE:
            raise ValueError(f"a {value.dtype} {value.layout} tensor")
        return value
    if isinstance(value, (list, tuple)):
        return [_encoded(v, torch) for v in value]
    if isinstance(value, torch.dtype):
        if value not in TORCH_TO_BUNDLE:
            raise ValueError(f"dtype {value}")
        return TORCH_TO_BUNDLE[value]
    if isinstance(value, (torch.layout, torch.memory_format, torch.device)):
        return str(value)
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if type(value).__name__ in ("SymInt", "SymBool"):
        return int(value)
    if type(value).__name__ == "SymFloat":
        return float(value)
    raise ValueError(f"an argument of type {type(value).__name__}")


def library_call(func, args, kwargs):
    """``Call`` for an aten call npusim's library implements, or a string: why it is
    left to the host."""
    import torch

    from .recorder import _MISSING, argument_value

    name = _op_name(func)
    if name is None:
        return "not in npusim's library (docs/library-calls.md)"
    schema = func._schema
    values, writes, updated, by_alias = [], [], [], {}
    try:
        for position, argument in enumerate(schema.arguments):
            value = argument_value(argument, position, args, kwargs, missing=_MISSING)
            if value is _MISSING:
                return f"argument {argument.name} not given"
            alias = argument.alias_info
            if alias is not None and alias.is_write:
                tensors = [v for v in (value if isinstance(value, (list, tuple)) else [value])
                           if isinstance(v, torch.Tensor)]
                writes.extend(tensors)
                by_alias[frozenset(alias.before_set)] = value
                if argument.kwarg_only:
                    continue  # out=: written, no input
                updated.extend(tensors)
            values.append(_encoded(value, torch))
    except ValueError as why:
        return f"{why} ({name} takes tensors of the bundle dtypes, numbers, lists and dtypes)"
    results, layouts = [], None
    for index, returned in enumerate(schema.returns):
        alias = returned.alias_info
        if alias is not None:
            if frozenset(alias.before_set) not in by_alias:
                return f"result {index} is a view"
            results.append(by_alias[frozenset(alias.before_set)])
            continue
        if layouts is None:
            try:
                layouts = _result_layout(func, args, kwargs)
            except ValueError as why:
                return str(why)
            layouts = list(layouts) if isinstance(layouts, (tuple, list)) else [layouts]
        layout = layouts[index]
        if isinstance(layout, (list, tuple)):
            return f"result {index} is a list of tensors"
        if isinstance(layout, torch.Tensor):
            device = layout.device if layout.device.type != "meta" else _device(values, writes)
            fresh = torch.empty_strided(layout.shape, layout.stride(), dtype=layout.dtype, device=device)
            writes.append(fresh)
            results.append(fresh)
        else:
            results.append(layout)  # None (a result output_mask leaves out) or a number
    if not writes:
        return "writes no tensor"
    result = None if not results else results[0] if len(results) == 1 else tuple(results)
    return Call(name, values, writes, result, updated)


def _flat(values):
    for v in values:
        if isinstance(v, list):
            yield from _flat(v)
        else:
            yield v


def _device(values, writes):
    import torch

    tensors = [t for t in list(_flat(values)) + writes if isinstance(t, torch.Tensor)]
    return tensors[0].device if tensors else torch.device("cpu")


def _result_layout(func, args, kwargs):
    """The results' shapes, strides and dtypes, no values computed: from fake tensors of
    the arguments' own device, whose rules (a convolution's channels-last output on CUDA
    and CPU) Inductor's generated code asserts; the meta device's where fake tensors fail."""
    import torch

    try:
        from torch._subclasses.fake_tensor import FakeTensorMode

        with FakeTensorMode(allow_non_fake_inputs=True) as mode:
            def fake(v):
                return mode.from_tensor(v) if isinstance(v, torch.Tensor) else v

            return func(*[fake(v) for v in args], **{k: fake(v) for k, v in kwargs.items()})
    except Exception as error:  # noqa: BLE001 - an op fake tensors do not take: the meta device's layout
        if "DynamicOutputShape" in type(error).__name__ or "DataDependent" in type(error).__name__:
            raise ValueError("its results' shapes depend on its values") from error
        def meta(v):
            return v.to("meta") if isinstance(v, torch.Tensor) else v

        return func(*[meta(v) for v in args], **{k: meta(v) for k, v in kwargs.items()})


@contextlib.contextmanager
def beneath_current_modes(mode):
    """Enters ``mode`` under the dispatch modes already active, so that they (a capture's
    recorder, a user's profiling mode) see each call first, as an aten call with its
    results, and npusim's mode is where the call ends, as on a device. Where an active
    mode is one of PyTorch's own (fake tensors, tracing), ``mode`` goes on top instead."""
    from torch.utils._python_dispatch import _get_current_dispatch_mode_stack, _pop_mode, _push_mode

    above = list(_get_current_dispatch_mode_stack())
    if not above or any(getattr(type(m), "is_infra_mode", lambda: False)() for m in above):
        with mode:
            yield
        return
    popped = [_pop_mode() for _ in above]
    try:
        with mode:
            for m in reversed(popped):
                _push_mode(m)
            try:
                yield
            finally:
                for _ in popped:
                    _pop_mode()
    finally:
        for m in reversed(popped):
            _push_mode(m)
