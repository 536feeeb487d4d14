"""``mindspore.train.summary``: ``SummaryRecord`` writing TensorBoard event files."""
from .summary_record import SummaryRecord

__all__ = ["SummaryRecord"]
