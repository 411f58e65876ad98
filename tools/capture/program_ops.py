"""One scenario op (scenarios/README.md, "Ops") as the torch expression whose ATen call the
simulator's host model records, so a captured trace and a simulated one name the same rows.

Choices that matter for the comparison:
  - `mm` is torch.mm (aten::mm only); `matmul` is `a @ b` (aten::matmul -> aten::mm/bmm), as in
    the tutorial's `x @ x`. Writing `@` for `mm` would add an aten::matmul row the model lacks.
  - Reductions, softmax, cumsum, sort, topk and argmax work along the last dim, as in the model.
  - `rotary` is rblnsim's modelling composite; the program defines _rotary() for it.
"""
import math

# op -> torch callable for ops whose inputs pass straight through.
_PLAIN = {
    "abs": "torch.abs", "ceil": "torch.ceil", "floor": "torch.floor", "neg": "torch.neg",
    "trunc": "torch.trunc", "log": "torch.log", "rsqrt": "torch.rsqrt", "sigmoid": "torch.sigmoid",
    "exp": "torch.exp", "tanh": "torch.tanh", "logical_not": "torch.logical_not",
    "silu": "F.silu", "relu": "F.relu", "gelu": "F.gelu", "where": "torch.where",
    "bmm": "torch.bmm", "mm": "torch.mm", "linear": "F.linear", "rotary": "_rotary",
}
# Two tensors, or a tensor and a scalar operand.
_BINARY = {"add", "sub", "mul", "div", "pow", "eq", "ne", "ge", "gt", "le", "lt"}
# Along the last dim.
_LAST_DIM = {
    "mean": "torch.mean({x}, dim=-1)", "max": "torch.max({x}, dim=-1).values",
    "min": "torch.min({x}, dim=-1).values", "softmax": "torch.softmax({x}, dim=-1)",
    "argmax": "torch.argmax({x}, dim=-1)", "cumsum": "torch.cumsum({x}, dim=-1)",
    "sort": "torch.sort({x}, dim=-1).values", "sum": "torch.sum({x}, dim=-1)",
    "flip": "torch.flip({x}, dims=(-1,))",
}
_CASTS = {"to_fp32": "torch.float32", "to_fp16": "torch.float16", "to_bf16": "torch.bfloat16"}


def scalar_text(value):
    """A scalar operand as Python source (describe writes NaN as null)."""
    if value is None:
        return 'float("nan")'
    value = float(value)
    if math.isinf(value):
        return 'float("inf")' if value > 0 else '-float("inf")'
    return repr(value)


def _int(value):
    return str(int(value))


def op_expression(op, args, scalars):
    """The expression for `op` applied to Python names `args` with scalar operands `scalars`."""
    joined = ", ".join(args)
    # The in-place form ("add_"): the method on its first input, which it writes.
    if op.endswith("_") and op[:-1] in ("silu", "relu"):
        return f"F.{op[:-1]}({args[0]}, inplace=True)"
    if op.endswith("_") and (op[:-1] in _BINARY or op[:-1] in _PLAIN or op[:-1] == "clamp"):
        if _PLAIN.get(op[:-1], "torch.").startswith("F."):
            raise ValueError(f"no in-place torch form of {op[:-1]!r}")
        base = op_expression(op[:-1], ["_self"] + args[1:], scalars)
        method = base.replace("torch.", "", 1).replace("(_self, ", "_(", 1).replace("(_self)", "_()", 1)
        return f"{args[0]}.{method}"
    if op in _PLAIN:
        return f"{_PLAIN[op]}({joined})"
    if op in _BINARY:
        if len(args) == 1:
            return f"torch.{op}({args[0]}, {scalar_text(scalars[0])})"
        alpha = f", alpha={scalar_text(scalars[0])}" if scalars else ""
        return f"torch.{op}({joined}{alpha})"
    if op in _LAST_DIM:
        return _LAST_DIM[op].format(x=args[0])
    if op in _CASTS:
        return f"{args[0]}.to({_CASTS[op]})"
    if op == "matmul":
        return f"{args[0]} @ {args[1]}"
    if op == "clamp":
        bounds = [f"min={scalar_text(scalars[0])}"]
        if len(scalars) > 1:
            bounds.append(f"max={scalar_text(scalars[1])}")
        return f"torch.clamp({args[0]}, {', '.join(bounds)})"
    if op == "masked_fill":
        return f"{args[0]}.masked_fill({args[1]}, {scalar_text(scalars[0])})"
    if op == "addmm":
        keywords = "".join(f", {k}={scalar_text(v)}" for k, v in zip(("beta", "alpha"), scalars))
        return f"torch.addmm({joined}{keywords})"
    if op in ("sdpa", "attention"):
        mask = f", attn_mask={args[3]}" if len(args) > 3 else ""
        scale = f", scale={scalar_text(scalars[0])}" if scalars else ""
        return f"F.scaled_dot_product_attention({', '.join(args[:3])}{mask}{scale})"
    if op == "rms_norm":
        eps = f", eps={scalar_text(scalars[0])}" if scalars else ""
        return f"F.rms_norm({args[0]}, ({args[0]}.shape[-1],), weight={args[1]}{eps})"
    if op == "embedding":  # the scenario lists (weight, indices); F.embedding takes (input, weight)
        return f"F.embedding({args[1]}, {args[0]})"
    if op == "topk":
        return f"torch.topk({args[0]}, {_int(scalars[0])}, dim=-1).values"
    if op == "cat":
        dim = _int(scalars[0]) if scalars else "0"
        return f"torch.cat([{joined}], dim={dim})"
    if op == "transpose":
        return f"torch.transpose({args[0]}, {_int(scalars[0])}, {_int(scalars[1])})"
    if op == "reshape":
        shape = ", ".join(_int(s) for s in scalars)
        return f"torch.reshape({args[0]}, ({shape}{',' if len(scalars) == 1 else ''}))"
    raise ValueError(f"no torch mapping for op {op!r}")
