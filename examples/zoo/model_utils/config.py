"""Zoo-style configuration: a yaml file of defaults, every key overridable on the
command line (``--batch_size=16``), ``--config_path`` picks the yaml file.

Like the model zoo's ``src/model_utils/config.py``: the yaml's first document holds
the values, an optional second one the help texts; booleans are parsed with
``ast.literal_eval`` (``--save_checkpoint=False``)."""
import argparse
import ast
import os
from pprint import pformat

import yaml


class Config:
    """Attribute access to a (nested) dict of settings."""

    def __init__(self, cfg_dict):
        for key, value in cfg_dict.items():
            setattr(self, key, Config(value) if isinstance(value, dict) else value)

    def __str__(self):
        return pformat(self.__dict__)

    __repr__ = __str__


def _read_yaml(path):
    with open(path, "r") as f:
        docs = [d for d in yaml.load_all(f.read(), Loader=yaml.SafeLoader) if d is not None]
    if not docs or len(docs) > 2:
        raise ValueError(f"{path}: expected one yaml document of settings and optionally one of help texts")
    return docs[0], (docs[1] if len(docs) == 2 else {})


def get_config(default_yaml, argv=None):
    """Parse ``--config_path`` first, then every yaml key as a ``--key`` option."""
    pre = argparse.ArgumentParser(add_help=False)
    pre.add_argument("--config_path", default=default_yaml, help="yaml file of settings")
    known, _ = pre.parse_known_args(argv)
    cfg, helps = _read_yaml(known.config_path)
    parser = argparse.ArgumentParser(description=f"settings from {os.path.basename(known.config_path)}",
                                     parents=[pre])
    for key, value in cfg.items():
        if isinstance(value, (list, dict)):
            continue
        kind = ast.literal_eval if isinstance(value, bool) or value is None else type(value)
        parser.add_argument("--" + key, type=kind, default=value, help=helps.get(key, f"see {known.config_path}"))
    args = parser.parse_args(argv)
    cfg.update(vars(args))
    return Config(cfg)
