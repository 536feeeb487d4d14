"""``BackupAndRestore``: back up the train network every ``save_freq`` epochs, restore it when
training starts.

As MindSpore 2.10 (``mindspore/train/callback/_backup_and_restore.py``): ``backup_dir`` is
created at once; the file is ``<backup_dir>/backup.ckpt`` with the train network's
Parameters (weights and optimizer state) and nothing else, so a restored run starts again at
epoch 1 with the backed-up values (pass ``initial_epoch`` to ``Model.train`` to continue the
count); with ``delete_checkpoint=True`` the file is removed when training ends (a missing file
is MindSpore's ``FileNotFoundError`` too).
"""
from __future__ import annotations

import os
import stat

from ..._checkparam import check_bool, check_positive_int
from ... import log as logger
from ..serialization import load_checkpoint, save_checkpoint
from ._callback import Callback
from ._checkpoint import _make_directory

__all__ = ["BackupAndRestore"]


class BackupAndRestore(Callback):
    """Back up and restore the train network's Parameters (``backup_dir/backup.ckpt``)."""

    def __init__(self, backup_dir, save_freq="epoch", delete_checkpoint=True):
        super().__init__()
        self.backup_file = os.path.join(_make_directory(backup_dir), "backup.ckpt")
        self.save_freq = 1 if save_freq == "epoch" else check_positive_int(save_freq)
        self.delete_checkpoint = check_bool(delete_checkpoint)

    def on_train_begin(self, run_context):
        if os.path.exists(self.backup_file):
            logger.info(f"Restore checkpoint file is {self.backup_file}, load checkpoint into train net.")
            load_checkpoint(self.backup_file, net=run_context.original_args().train_network)

    def on_train_epoch_end(self, run_context):
        cb_params = run_context.original_args()
        if cb_params.cur_epoch_num % self.save_freq == 0:
            logger.info(f"Train task end, backup checkpoint file: {self.backup_file}.")
            save_checkpoint(cb_params.train_network, self.backup_file)

    def on_train_end(self, run_context):
        if self.delete_checkpoint:
            cur_epoch_num = run_context.original_args().cur_epoch_num
            logger.info(f"Delete restore checkpoint file {self.backup_file} at {cur_epoch_num} epoch.")
            os.chmod(self.backup_file, stat.S_IWRITE)
            os.remove(self.backup_file)
