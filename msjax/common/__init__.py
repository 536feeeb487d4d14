"""``mindspore.common``."""
from .._core.parameter import Parameter, ParameterTuple  # noqa: F401
from .seed import get_seed, set_seed  # noqa: F401
from .._core.tensor import Tensor  # noqa: F401
from . import dtype, initializer  # noqa: F401
from .api import _no_grad, jit  # noqa: F401
from .._core.rng import seed  # noqa: F401,E402  (mindspore.common.seed is the function mindspore.seed, as in MindSpore)
from . import _frontend_cache  # noqa: F401,E402  (lends the core its front-end compile cache)
from . import _graph_values  # noqa: F401,E402  (lends the core what graphs return for Python objects)
from . import _pijit_records  # noqa: F401,E402  (PIJit's code records of bytecode-mode functions)
from . import _graph_source  # noqa: F401,E402  (lends ms.jit the function as MindSpore's graph compiler reads it)
from . import _eager_store  # noqa: F401,E402  (keeps PyNative's compiled programs across processes)
