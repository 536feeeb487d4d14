"""``mindspore.dataset.transforms.validators``: the argument checks of the compound
transforms, as decorators of their ``__init__`` (MindSpore's checks and messages).

``check_random_transform_ops`` guards ``Compose``, ``RandomApply``, ``RandomChoice`` and
``RandomOrder`` here as in MindSpore, and user transforms written in the zoo's style
(``@check_random_transform_ops`` on their own ``__init__(self, transforms[, prob])``).
"""
import inspect
from functools import wraps

__all__ = ["check_random_transform_ops", "check_transform_op_type", "check_tensor_op", "parse_user_args",
           "type_check"]


def parse_user_args(method, *args, **kwargs):
    """The values the user gave for ``method``'s parameters (defaults filled in), in order,
    and the bound arguments."""
    sig = inspect.signature(method)
    if "self" in sig.parameters or "cls" in sig.parameters:
        ba = sig.bind(method, *args, **kwargs)
        ba.apply_defaults()
        params = list(sig.parameters.keys())[1:]
    else:
        ba = sig.bind(*args, **kwargs)
        ba.apply_defaults()
        params = list(sig.parameters.keys())
    return [ba.arguments.get(p) for p in params], ba.arguments


def type_check(arg, types, arg_name):
    """TypeError unless ``arg`` is one of ``types`` (a bool is no int)."""
    shown = '""' if repr(arg) == repr("") else arg
    if int in types and bool not in types and isinstance(arg, bool):   # MindSpore shows the tuple here
        raise TypeError(f"Argument {arg_name} with value {shown} is not of type {types}, but got {type(arg)}.")
    if not isinstance(arg, types):
        raise TypeError(f"Argument {arg_name} with value {shown} is not of type {list(types)}, but got {type(arg)}.")


def check_tensor_op(param, param_name):
    """A transform: a dataset operation or any callable."""
    if not callable(param) and not getattr(param, "parse", None):
        raise TypeError(f"{param_name} is neither a transforms op (TensorOperation) nor a callable pyfunc.")


def check_transform_op_type(ind, op):
    """An operation instance, not its class."""
    if type(op) == type:  # noqa: E721 - MindSpore's test: a class, not an instance
        raise ValueError(f"op_list[{ind}] should be a dataset processing operation instance, but got: {op}. "
                         "It may be missing parentheses for instantiation.")


def check_random_transform_ops(method):
    """Checks ``(transforms[, prob])`` of ``Compose``/``RandomApply``/``RandomChoice``/
    ``RandomOrder``: a non-empty list of operation instances; ``prob`` a number in [0, 1]."""

    @wraps(method)
    def new_method(self, *args, **kwargs):
        arg_list, _ = parse_user_args(method, *args, **kwargs)
        type_check(arg_list[0], (list,), "transforms list")
        if not arg_list[0]:
            raise ValueError("transforms list can not be empty.")
        for ind, op in enumerate(arg_list[0]):
            check_tensor_op(op, f"transforms[{ind}]")
            check_transform_op_type(ind, op)
        if len(arg_list) == 2:   # RandomApply's prob
            type_check(arg_list[1], (float, int), "prob")
            if arg_list[1] < 0 or arg_list[1] > 1:
                raise ValueError("Input prob is not within the required interval of [0, 1].")
        return method(self, *args, **kwargs)

    return new_method
