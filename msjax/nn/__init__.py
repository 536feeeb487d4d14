"""``mindspore.nn``: Cells, layers and losses."""
from .cell import Cell
from .layer.activation import ReLU, Sigmoid, Tanh, get_activation
from .layer.basic import Dense, Flatten, Identity
from .layer.container import CellList, SequentialCell
from .loss.loss import LossBase, MSELoss

__all__ = ["Cell", "Dense", "Flatten", "Identity", "SequentialCell", "CellList", "ReLU", "Sigmoid", "Tanh",
           "get_activation", "LossBase", "MSELoss"]
from .layer import basic as _basic, conv as _conv, container as _container, embedding as _embedding, image as _image, normalization as _norm, padding as _padding, pooling as _pooling, rnns as _rnns, transformer as _transformer  # noqa: E402,E501  (layers: conv/pool/norm/...)
for _m in (_basic, _conv, _container, _embedding, _image, _norm, _padding, _pooling, _rnns, _transformer): globals().update({_n: getattr(_m, _n) for _n in _m.__all__}); __all__ += [_n for _n in _m.__all__ if _n not in __all__]  # noqa: E702,E501
from . import optim as _optim, learning_rate_schedule as _lrs, dynamic_lr as _dlr, wrap as _wrap, clip as _clip  # noqa: E402,E702  (optimizers, LR schedules, training wrappers)
for _m in (_optim, _lrs, _dlr, _wrap, _clip): globals().update({_n: getattr(_m, _n) for _n in _m.__all__}); __all__ += [_n for _n in _m.__all__ if _n not in __all__]  # noqa: E702,E501
from .layer import activation as _act; from .loss import loss as _loss; globals().update({_n: getattr(_m, _n) for _m in (_act, _loss) for _n in _m.__all__}); __all__ += [_n for _m in (_act, _loss) for _n in _m.__all__ if _n not in __all__]  # noqa: E402,E702,E501  (activations, losses)
from . import metrics as _metrics; globals().update({_n: getattr(_metrics, _n) for _n in _metrics.__all__}); __all__ += [_n for _n in _metrics.__all__ if _n not in __all__]  # noqa: E402,E702,E501  (metrics: Accuracy, MAE, F1, ... as in mindspore.nn)
from .layer import combined as _combined, math as _lmath, sparse as _sparse, thor_layer as _thor, timedistributed as _td  # noqa: E402,E501
for _m in (_combined, _lmath, _sparse, _thor, _td, _basic, _embedding, _image, _norm, _pooling): globals().update({_n: getattr(_m, _n) for _n in _m.__all__}); __all__ += [_n for _n in _m.__all__ if _n not in __all__]  # noqa: E702,E501
from .grad import Jvp, Vjp  # noqa: E402
from .graph_cell import GraphCell  # noqa: E402
from .utils import no_init_parameters  # noqa: E402
__all__ += ["Jvp", "Vjp", "no_init_parameters", "GraphCell"]
