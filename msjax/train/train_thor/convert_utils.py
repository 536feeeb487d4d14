"""``mindspore.train.train_thor.convert_utils``: ``ConvertNetUtils`` and
``ConvertModelUtils`` turn a network/``Model`` into their THOR-optimizer forms.
msjax has no THOR (see ``nn.thor``): both classes import (the zoo's ResNet
``train.py`` imports ``ConvertModelUtils`` at the top whatever its optimizer) and
``convert_to_thor_net`` and a THOR ``convert_to_thor_model`` raise
``NotImplementedError`` naming the feature (any other optimizer: the Model comes
back unchanged, as in MindSpore).
"""
from __future__ import annotations

__all__ = ["ConvertNetUtils", "ConvertModelUtils"]


def _no_thor(what):
    return NotImplementedError(
        f"msjax does not implement '{what}' (the THOR second-order optimizer, nn.thor, needs MindSpore's "
        "Thor layers and Ascend/GPU kernels). Train with nn.Momentum or nn.Adam instead.")


class ConvertNetUtils:
    """``ConvertNetUtils()``: ``convert_to_thor_net`` raises here."""

    def convert_to_thor_net(self, net):
        """Not supported: raises NotImplementedError."""
        raise _no_thor("ConvertNetUtils.convert_to_thor_net")


class ConvertModelUtils:
    """``ConvertModelUtils()``: ``convert_to_thor_model`` raises for a THOR optimizer."""

    @staticmethod
    def convert_to_thor_model(model, network, loss_fn=None, optimizer=None, metrics=None, amp_level="O0",
                              loss_scale_manager=None, keep_batchnorm_fp32=False):
        """``model`` itself when ``optimizer`` is not THOR (as in MindSpore, which only
        converts for ``ThorAscend``/``ThorGpu``); a THOR optimizer raises NotImplementedError."""
        if type(optimizer).__name__ in ("ThorAscend", "ThorGpu"):
            raise _no_thor("ConvertModelUtils.convert_to_thor_model")
        return model
