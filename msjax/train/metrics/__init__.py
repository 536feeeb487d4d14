"""``mindspore.train.metrics``: MindSpore 2.x's home of the metrics. They stand on
Tensors and NumPy alone and ``mindspore.nn`` exports them too, so msjax keeps them
in ``msjax/nn/metrics`` (below ``train``: ``nn`` never imports ``train``) and this
package re-exports them; ``mindspore.train.metrics.<module>`` paths resolve through
the module tree."""
from ...nn.metrics import *  # noqa: F401,F403
from ...nn.metrics import __all__  # noqa: F401
from ...nn.metrics import EvaluationBase, get_metrics  # noqa: F401
