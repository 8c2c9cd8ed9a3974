"""The kernel text npusim's front end reads, from what a user hands run_kernel: a
file, source text, or a ``@triton.jit`` function.

A hand-written ``@triton.jit`` kernel has no Inductor signature, and npusim's front end
then needs every parameter typed by a string annotation (``x_ptr: "*fp32"``) or
``tl.constexpr`` (docs/frontend.md). The types are those Triton's launcher would
specialise the kernel for, from the launch's arguments: a pointer to the array's
element type, ``i1`` for a bool, ``i32`` for an int that fits (else ``i64``), ``fp32``
for a float, and ``tl.constexpr`` for the names in ``consts``. Only the annotations
are inserted, so lines and columns in error messages are those of the user's file.
"""

import ast
import inspect
import os
import textwrap

_NUMPY_TO_TRITON = {
    "bool": "i1", "int8": "i8", "int16": "i16", "int32": "i32", "int64": "i64",
    "uint8": "u8", "uint16": "u16", "uint32": "u32", "uint64": "u64",
    "float16": "fp16", "float32": "fp32", "float64": "fp64",
}
_TORCH_TO_TRITON = dict(_NUMPY_TO_TRITON, bfloat16="bf16")
_HEADER = ["import triton", "import triton.language as tl"]


def triton_type(value):
    """The signature type Triton specialises a launch argument to."""
    if isinstance(value, bool):
        return "i1"
    if isinstance(value, int):
        return "i32" if -2**31 <= value < 2**31 else "i64"
    if isinstance(value, float):
        return "fp32"
    dtype = getattr(value, "dtype", None)
    if dtype is None:
        raise TypeError(f"cannot type a launch argument of type {type(value).__name__}")
    name = str(dtype).replace("torch.", "")
    table = _TORCH_TO_TRITON if str(dtype).startswith("torch.") else _NUMPY_TO_TRITON
    if name not in table:
        raise TypeError(f"npusim has no Triton element type for {dtype}")
    return "*" + table[name]


def _python_function(kernel):
    """The Python function of a @triton.jit object (Triton 2 and 3 keep it as .fn)."""
    fn = getattr(kernel, "fn", kernel)
    while hasattr(fn, "fn") and not inspect.isfunction(fn):
        fn = fn.fn
    return fn


def annotate(source, args, consts, first_line=1):
    """``source`` with the last function's untyped parameters annotated; ``first_line``
    is the line of the source's first line in its file (for exact positions)."""
    tree = ast.parse(source)
    defs = [n for n in tree.body if isinstance(n, ast.FunctionDef)]
    if not defs:
        raise ValueError("the kernel source has no function")
    kernel = defs[-1]
    lines = source.split("\n")
    edits = []
    params = kernel.args.posonlyargs + kernel.args.args
    for param in params:
        if param.annotation is not None and param.arg not in consts:
            continue
        if param.arg in consts:
            annotation = "tl.constexpr"
        elif param.arg in args:
            annotation = repr(triton_type(args[param.arg]))
        else:
            continue  # the front end names the parameter that has no type
        if param.annotation is not None:
            node = param.annotation
            edits.append((node.lineno, node.col_offset, node.end_col_offset, annotation))
        else:
            edits.append((param.end_lineno, param.end_col_offset, param.end_col_offset, ": " + annotation))
    for lineno, start, end, text in sorted(edits, reverse=True):
        line = lines[lineno - 1]
        lines[lineno - 1] = line[:start] + text + line[end:]
    before = max(first_line - 1, 0)
    if before >= len(_HEADER):
        header = _HEADER + [""] * (before - len(_HEADER))
    else:
        header = _HEADER
    return "\n".join(header + lines) + "\n"


def kernel_source(kernel, args, consts):
    """``(source text, file name for messages)`` of a path, a text or a jit function."""
    if isinstance(kernel, os.PathLike) or (isinstance(kernel, str) and "\n" not in kernel):
        path = os.fspath(kernel)
        try:
            with open(path, encoding="utf-8") as f:
                return f.read(), path
        except OSError as e:
            from . import _native_loader

            raise _native_loader.load().InputError(f"{path}: error: cannot read the kernel file: {e.strerror}")
    if isinstance(kernel, str):
        return kernel, "<kernel>"
    fn = _python_function(kernel)
    if not inspect.isfunction(fn):
        raise TypeError("run_kernel expects a kernel file, its source or a @triton.jit function, got "
                        f"{type(kernel).__name__}")
    lines, first = inspect.getsourcelines(fn)
    source = textwrap.dedent("".join(lines))
    file_name = inspect.getsourcefile(fn) or f"<{fn.__name__}>"
    return annotate(source, args, consts, first), file_name
