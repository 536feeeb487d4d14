"""``mindspore.parallel._utils``: the private helpers training cells (and the
migration guide's custom ``TrainOneStepCell``) import."""
from ._context import get_device_num, get_global_rank, get_gradients_mean, get_parallel_mode
from ._context import ParallelMode


def _get_parallel_mode():
    return get_parallel_mode()


def _get_device_num():
    return get_device_num()


def _get_gradients_mean():
    return get_gradients_mean()


def _get_global_rank():
    return get_global_rank()


def _is_in_auto_parallel_mode():
    return get_parallel_mode() in (ParallelMode.SEMI_AUTO_PARALLEL, ParallelMode.AUTO_PARALLEL)


def _get_enable_parallel_optimizer():
    from ._context import get_auto_parallel_context
    return get_auto_parallel_context("enable_parallel_optimizer")


def _get_pipeline_stages():
    from ._context import get_auto_parallel_context
    return get_auto_parallel_context("pipeline_stages")
