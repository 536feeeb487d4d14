"""Helpers shared by the zoo-style example scripts: the yaml/argparse config and
writers of small synthetic data sets in real on-disk formats."""
