"""The metrics of ``mindspore.train`` (MindSpore 2.x's home, ``msjax.train.metrics`` re-exports
them), also exported under ``mindspore.nn``."""
from .classification import (F1, Accuracy, ConfusionMatrix, ConfusionMatrixMetric, Fbeta, Precision, Recall,
                             Top1CategoricalAccuracy, Top5CategoricalAccuracy, TopKCategoricalAccuracy)
from .distances import HausdorffDistance, MeanSurfaceDistance, OcclusionSensitivity, RootMeanSquareDistance
from .metric import EvaluationBase, Metric, rearrange_inputs
from .regression import MAE, MSE, ROC, BleuScore, CosineSimilarity, Dice, Loss, Perplexity, auc

__all__ = ["names", "get_metric_fn", "get_metrics", "Accuracy", "MAE", "MSE", "Metric", "rearrange_inputs",
           "Precision", "HausdorffDistance", "Recall", "Fbeta", "BleuScore", "CosineSimilarity",
           "OcclusionSensitivity", "F1", "Dice", "ROC", "auc", "TopKCategoricalAccuracy", "Top1CategoricalAccuracy",
           "Top5CategoricalAccuracy", "Loss", "MeanSurfaceDistance", "RootMeanSquareDistance", "Perplexity",
           "ConfusionMatrix", "ConfusionMatrixMetric"]

__factory__ = {
    "accuracy": Accuracy, "acc": Accuracy, "precision": Precision, "recall": Recall, "F1": F1, "dice": Dice,
    "roc": ROC, "auc": auc, "bleu_score": BleuScore, "cosine_similarity": CosineSimilarity,
    "occlusion_sensitivity": OcclusionSensitivity, "topk": TopKCategoricalAccuracy,
    "hausdorff_distance": HausdorffDistance, "top_1_accuracy": Top1CategoricalAccuracy,
    "top_5_accuracy": Top5CategoricalAccuracy, "mae": MAE, "mse": MSE, "loss": Loss,
    "mean_surface_distance": MeanSurfaceDistance, "root_mean_square_distance": RootMeanSquareDistance,
    "perplexity": Perplexity, "confusion_matrix": ConfusionMatrix, "confusion_matrix_metric": ConfusionMatrixMetric,
}


def names():
    """Names ``get_metric_fn`` knows."""
    return sorted(__factory__.keys())


def get_metric_fn(name, *args, **kwargs):
    """A metric instance by name (``'accuracy'``, ``'mae'``, ``'top_5_accuracy'``, ...)."""
    if name not in __factory__:
        raise KeyError(f"For 'get_metric_fn', unsupported metric {name}, please refer to official website for more "
                       "details about supported metrics.")
    return __factory__[name](*args, **kwargs)


def get_metrics(metrics):
    """Metrics for ``Model``: a dict of name -> Metric, or a set of names."""
    if metrics is None:
        return metrics
    if isinstance(metrics, dict):
        for name, metric in metrics.items():
            if not isinstance(name, str) or not isinstance(metric, Metric):
                raise TypeError("For 'get_metrics', if 'metrics' is dict, the key in 'metrics' must be string and "
                                "value in 'metrics' must be Metric, but got key:"
                                f"{type(name)}, value:{type(metric)}.")
        return metrics
    if isinstance(metrics, set):
        return {name: get_metric_fn(name) for name in metrics}
    raise TypeError(f"For 'get_metrics', the argument 'metrics' must be None, dict or set, but got {metrics}")
