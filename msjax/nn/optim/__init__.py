"""Optimizers (``mindspore.nn.optim``), each an optax transformation behind
MindSpore's class (see ``optimizer.py``)."""
from .optimizer import Optimizer, opt_init_args_register
from .momentum import Momentum
from .adam import Adam, AdamWeightDecay, AdamOffload
from .lamb import Lamb
from .sgd import SGD
from .asgd import ASGD
from .rprop import Rprop
from .lars import LARS
from .ftrl import FTRL
from .rmsprop import RMSProp
from .proximal_ada_grad import ProximalAdagrad
from .lazyadam import LazyAdam
from .ada_grad import Adagrad
from .thor import thor
from .adafactor import AdaFactor
from .adasum import AdaSumByDeltaWeightWrapCell, AdaSumByGradWrapCell
from .adamax import AdaMax
from .adadelta import Adadelta
from .tft_wrapper import OptTFTWrapper

__all__ = ["Optimizer", "Momentum", "LARS", "Adam", "AdamWeightDecay", "LazyAdam", "AdamOffload", "Lamb", "SGD",
           "ASGD", "Rprop", "FTRL", "RMSProp", "ProximalAdagrad", "Adagrad", "thor", "AdaFactor",
           "AdaSumByDeltaWeightWrapCell", "AdaSumByGradWrapCell", "AdaMax", "Adadelta", "OptTFTWrapper",
           "opt_init_args_register"]
