"""Small pieces every example script uses: where the data and checkpoints live,
and the learning-rate list."""
import glob
import math
import os

import numpy as np


def prepare_data(config, writer, name):
    """``config.data_path``, or (when empty) a synthetic set written by ``writer``
    into ``<output_dir>/data_<name>`` (kept, so eval.py reads the same files)."""
    if config.data_path:
        return config.data_path
    path = os.path.join(os.path.abspath(config.output_dir), f"data_{name}")
    if not os.path.isdir(path):
        writer(path)
        print(f"wrote a synthetic {name} data set to {path}", flush=True)
    return path


def checkpoint_dir(config):
    return os.path.join(os.path.abspath(config.output_dir), "ckpt")


def latest_checkpoint(config):
    """``config.checkpoint_file_path``, or the newest ``.ckpt`` in ``<output_dir>/ckpt``."""
    if config.checkpoint_file_path:
        return config.checkpoint_file_path
    files = glob.glob(os.path.join(checkpoint_dir(config), "*.ckpt"))
    if not files:
        raise FileNotFoundError(f"no checkpoint in {checkpoint_dir(config)}: run train.py first "
                                "or pass --checkpoint_file_path")
    return max(files, key=os.path.getmtime)


def load_checkpoint_strictly(net, config):
    """Load the checkpoint ``latest_checkpoint(config)`` names into ``net``; raise
    when it lacks any of the network's Parameters. Returns the file's path."""
    from mindspore import load_checkpoint, load_param_into_net
    ckpt = latest_checkpoint(config)
    not_loaded, _ = load_param_into_net(net, load_checkpoint(ckpt), strict_load=True)
    if not_loaded:
        raise RuntimeError(f"{ckpt} lacks {not_loaded}")
    return ckpt


def warmup_cosine_lr(lr_init, lr_max, warmup_steps, total_steps, lr_end=0.0):
    """Per-step learning rates: linear warm-up from ``lr_init`` to ``lr_max``, then a
    cosine decay to ``lr_end``."""
    lrs = []
    for step in range(total_steps):
        if step < warmup_steps:
            lr = lr_init + (lr_max - lr_init) * (step + 1) / warmup_steps
        else:
            frac = (step - warmup_steps) / max(1, total_steps - warmup_steps)
            lr = lr_end + 0.5 * (lr_max - lr_end) * (1 + math.cos(math.pi * frac))
        lrs.append(lr)
    return np.array(lrs, np.float32)
