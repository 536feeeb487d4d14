"""Classification metrics: Accuracy, Precision, Recall, Fbeta/F1, top-k accuracy,
confusion matrices (MindSpore 2.10's semantics and messages)."""
from __future__ import annotations

import sys

import numpy as np

from .metric import EvaluationBase, Metric, check_onehot_data, check_string, check_value_type, rearrange_inputs

__all__ = ["Accuracy", "Precision", "Recall", "Fbeta", "F1", "TopKCategoricalAccuracy", "Top1CategoricalAccuracy",
           "Top5CategoricalAccuracy", "ConfusionMatrix", "ConfusionMatrixMetric"]


def _two(name, inputs):
    if len(inputs) != 2:
        raise ValueError(f"For '{name}.update', it needs 2 inputs (predicted value, true value), but got "
                         f"{len(inputs)}.")


class Accuracy(EvaluationBase):
    """Fraction of samples whose arg-max prediction (or multilabel row) is right."""

    def __init__(self, eval_type="classification"):
        super().__init__(eval_type)
        self.clear()

    def clear(self):
        self._correct_num = 0
        self._total_num = 0
        self._class_num = 0

    @rearrange_inputs
    def update(self, *inputs):
        if len(inputs) != 2:
            raise ValueError("For 'Accuracy.update', it needs 2 inputs (predicted value, true value), but got "
                             f"{len(inputs)}")
        y_pred = self._convert_data(inputs[0])
        y = self._convert_data(inputs[1])
        if self._type == "classification" and y_pred.ndim == y.ndim and check_onehot_data(y):
            y = y.argmax(axis=1)
        self._check_shape(y_pred, y)
        self._check_value(y_pred, y)
        if self._class_num == 0:
            self._class_num = y_pred.shape[1]
        elif y_pred.shape[1] != self._class_num:
            raise ValueError("For 'Accuracy.update', class number not match, last input predicted data contain "
                             f"{self._class_num} classes, but current predicted data contain {y_pred.shape[1]} "
                             "classes, please check your predicted value(inputs[0]).")
        if self._type == "classification":
            indices = y_pred.argmax(axis=1)
            result = (np.equal(indices, y) * 1).reshape(-1)
        else:
            dim = y_pred.ndim - 1
            y_pred = y_pred.swapaxes(1, dim).reshape(-1, self._class_num)
            y = y.swapaxes(1, dim).reshape(-1, self._class_num)
            result = np.equal(y_pred, y).all(axis=1) * 1
        self._correct_num += result.sum()
        self._total_num += result.shape[0]

    def eval(self):
        if self._total_num == 0:
            raise RuntimeError("The 'Accuracy' can not be calculated, because the number of samples is 0, please "
                               "check whether your inputs(predicted value, true value) are empty, or has called "
                               "update method before calling eval method.")
        return self._correct_num / self._total_num


class _PrecisionRecall(EvaluationBase):
    _name = ""
    _count = ""   # "positives" (precision) or "actual_positives" (recall)

    def __init__(self, eval_type="classification"):
        super().__init__(eval_type)
        self.eps = sys.float_info.min
        self.clear()

    def clear(self):
        self._class_num = 0
        if self._type == "multilabel":
            self._true_positives = np.empty(0)
            self._den = np.empty(0)
            self._true_positives_average = 0
            self._den_average = 0
        else:
            self._true_positives = 0
            self._den = 0

    @rearrange_inputs
    def update(self, *inputs):
        _two(self._name, inputs)
        y_pred = self._convert_data(inputs[0])
        y = self._convert_data(inputs[1])
        if self._type == "classification" and y_pred.ndim == y.ndim and check_onehot_data(y):
            y = y.argmax(axis=1)
        self._check_shape(y_pred, y)
        self._check_value(y_pred, y)
        if self._class_num == 0:
            self._class_num = y_pred.shape[1]
        elif y_pred.shape[1] != self._class_num:
            raise ValueError(f"For '{self._name}.update', class number not match, last input predicted data contain "
                             f"{self._class_num} classes, but current predicted data contain {y_pred.shape[1]} "
                             "classes, please check your predicted value(inputs[0]).")
        class_num = self._class_num
        if self._type == "classification":
            if y.max() + 1 > class_num:
                raise ValueError(f"For '{self._name}.update', predicted value (input[0]) should have the same "
                                 "classes number as true value (input[1]), but got predicted value classes "
                                 f"{class_num}, true value classes {y.max() + 1}.")
            y = np.eye(class_num)[y.reshape(-1)]
            indices = y_pred.argmax(axis=1).reshape(-1)
            y_pred = np.eye(class_num)[indices]
        else:
            y_pred = y_pred.swapaxes(1, 0).reshape(class_num, -1)
            y = y.swapaxes(1, 0).reshape(class_num, -1)
        den = (y_pred if self._count == "positives" else y).sum(axis=0)
        true_positives = (y * y_pred).sum(axis=0)
        if self._type == "multilabel":
            self._true_positives_average += np.float64(np.sum(true_positives / (den + self.eps)))
            self._den_average += len(den)
            self._true_positives = np.concatenate((self._true_positives, true_positives), axis=0)
            self._den = np.concatenate((self._den, den), axis=0)
        else:
            self._true_positives += true_positives
            self._den += den

    def eval(self, average=False):
        if self._class_num == 0:
            raise RuntimeError(f"The '{self._name}' can not be calculated, because the number of samples is 0, "
                               "please check whether your inputs (predicted value, true value) are empty, or has "
                               "called update method before calling eval method.")
        check_value_type("average", average, [bool], type(self).__name__)
        result = self._true_positives / (self._den + self.eps)
        if average:
            if self._type == "multilabel":
                result = self._true_positives_average / (self._den_average + self.eps)
            return result.mean()
        return result


class Precision(_PrecisionRecall):
    """Per-class precision ``tp / (tp + fp)`` (``eval(average=True)``: their mean)."""

    _name = "Precision"
    _count = "positives"


class Recall(_PrecisionRecall):
    """Per-class recall ``tp / (tp + fn)`` (``eval(average=True)``: their mean)."""

    _name = "Recall"
    _count = "actual_positives"


class Fbeta(Metric):
    """Per-class F-beta score."""

    def __init__(self, beta):
        super().__init__()
        self.eps = sys.float_info.min
        if not beta > 0:
            raise ValueError(f"For 'Fbeta', the argument 'beta' must be greater than 0, but got {beta}.")
        self.beta = beta
        self.clear()

    def clear(self):
        self._true_positives = 0
        self._actual_positives = 0
        self._positives = 0
        self._class_num = 0

    @rearrange_inputs
    def update(self, *inputs):
        _two("Fbeta", inputs)
        y_pred = self._convert_data(inputs[0])
        y = self._convert_data(inputs[1])
        if y_pred.ndim == y.ndim and check_onehot_data(y):
            y = y.argmax(axis=1)
        if self._class_num == 0:
            self._class_num = y_pred.shape[1]
        elif y_pred.shape[1] != self._class_num:
            raise ValueError("For 'Fbeta.update', class number not match, last input predicted data contain "
                             f"{self._class_num} classes, but current predicted data contain {y_pred.shape[1]} "
                             "classes, please check your predicted value(inputs[0]).")
        class_num = self._class_num
        if y.max() + 1 > class_num:
            raise ValueError("For 'Fbeta.update', predicted value(inputs[0]) and true value(inputs[1]) should "
                             f"contain same classes, but got predicted value contains {class_num} classes and true "
                             f"value contains {y.max() + 1} classes.")
        y = np.eye(class_num)[y.reshape(-1)]
        indices = y_pred.argmax(axis=1).reshape(-1)
        y_pred = np.eye(class_num)[indices]
        self._true_positives += (y * y_pred).sum(axis=0)
        self._positives += y_pred.sum(axis=0)
        self._actual_positives += y.sum(axis=0)

    def eval(self, average=False):
        check_value_type("average", average, [bool], type(self).__name__)
        if self._class_num == 0:
            raise RuntimeError("The 'Fbeta' can not be calculated, because the number of samples is 0, please check "
                               "whether your inputs(predicted value, true value) are empty, or has called update "
                               "method before calling eval method.")
        fbeta = (1.0 + self.beta ** 2) * self._true_positives / \
            (self.beta ** 2 * self._actual_positives + self._positives + self.eps)
        if average:
            return fbeta.mean()
        return fbeta


class F1(Fbeta):
    """F1 score (``Fbeta(1.0)``)."""

    def __init__(self):
        super().__init__(1.0)


class TopKCategoricalAccuracy(Metric):
    """Fraction of samples whose label is among the ``k`` highest predictions."""

    def __init__(self, k):
        super().__init__()
        if not isinstance(k, int):
            raise TypeError("For 'TopKCategoricalAccuracy', the type of the argument 'k' should be int, but got 'k' "
                            f"type: {type(k)}.")
        if k < 1:
            raise ValueError("For 'TopKCategoricalAccuracy', the argument 'k' must be at least 1, but got 'k' value: "
                             f"{k}.")
        self.k = k
        self.clear()

    def clear(self):
        self._correct_num = 0
        self._samples_num = 0

    @rearrange_inputs
    def update(self, *inputs):
        if len(inputs) != 2:
            raise ValueError("For 'TopKCategoricalAccuracy.update', it needs 2 inputs (predicted value, true value), "
                             f"but got 'inputs' size: {len(inputs)}.")
        y_pred = self._convert_data(inputs[0])
        y = self._convert_data(inputs[1])
        if y_pred.ndim == y.ndim and check_onehot_data(y):
            y = y.argmax(axis=1)
        indices = np.argsort(-y_pred, axis=1)[:, :self.k]
        repeated_y = y.reshape(-1, 1).repeat(self.k, axis=1)
        correct = np.equal(indices, repeated_y).sum(axis=1)
        self._correct_num += correct.sum()
        self._samples_num += repeated_y.shape[0]

    def eval(self):
        if self._samples_num == 0:
            raise RuntimeError("The 'TopKCategoricalAccuracy' can not be calculated, because the number of samples is "
                               "0, please check whether your inputs (predicted value, true value) are empty, or has "
                               "called update method before calling eval method.")
        return self._correct_num / self._samples_num


class Top1CategoricalAccuracy(TopKCategoricalAccuracy):
    def __init__(self):
        super().__init__(1)


class Top5CategoricalAccuracy(TopKCategoricalAccuracy):
    def __init__(self):
        super().__init__(5)


class ConfusionMatrix(Metric):
    """``ConfusionMatrix(num_classes, normalize='no_norm', threshold=0.5)``: rows are true
    classes, columns predictions."""

    def __init__(self, num_classes, normalize="no_norm", threshold=0.5):
        super().__init__()
        self.num_classes = check_value_type("num_classes", num_classes, [int])
        if normalize not in ["target", "prediction", "all", "no_norm"]:
            raise ValueError("For 'ConfusionMatrix', the argument 'normalize' must be in ['all', 'prediction', "
                             f"'label', 'no_norm'(None)], but got {normalize}.")
        self.normalize = normalize
        self.threshold = check_value_type("threshold", threshold, [float])
        self.clear()

    def clear(self):
        self.confusion_matrix = np.zeros((self.num_classes, self.num_classes))
        self._is_update = False

    @rearrange_inputs
    def update(self, *inputs):
        _two("ConfusionMatrix", inputs)
        y_pred = self._convert_data(inputs[0])
        y = self._convert_data(inputs[1])
        if not (y_pred.ndim == y.ndim or y_pred.ndim == y.ndim + 1):
            raise ValueError("For 'ConfusionMatrix.update', predicted value (input[0]) and true value (input[1]) "
                             "should have same dimensions, or the dimension of predicted value equals the dimension "
                             f"of true value add 1, but got predicted value ndim: {y_pred.ndim}, true value ndim: "
                             f"{y.ndim}.")
        if y_pred.ndim == y.ndim + 1:
            y_pred = np.argmax(y_pred, axis=1)
        if y_pred.ndim == y.ndim and y_pred.dtype in (np.float16, np.float32, np.float64):
            y_pred = (y_pred >= self.threshold).astype(int)
        trans = (y.reshape(-1) * self.num_classes + y_pred.reshape(-1)).astype(int)
        bincount = np.bincount(trans, minlength=self.num_classes ** 2)
        self.confusion_matrix += bincount.reshape(self.num_classes, self.num_classes)
        self._is_update = True

    def eval(self):
        if not self._is_update:
            raise RuntimeError("Please call the 'update' method before calling 'eval' method.")
        cm = self.confusion_matrix.astype(float)
        if self.normalize == "no_norm":
            return cm
        with np.errstate(invalid="ignore", divide="ignore"):
            matrix = {"target": cm / cm.sum(axis=1, keepdims=True),
                      "prediction": cm / cm.sum(axis=0, keepdims=True),
                      "all": cm / cm.sum()}[self.normalize]
        matrix[np.isnan(matrix)] = 0
        return matrix


class ConfusionMatrixMetric(Metric):
    """Metrics derived from per-class confusion matrices of binarized predictions
    (sensitivity, specificity, precision, F1, MCC, ...)."""

    def __init__(self, skip_channel=True, metric_name="sensitivity", calculation_method=False, decrease="mean"):
        super().__init__()
        self.confusion_matrix = _ConfusionMatrix(skip_channel=skip_channel, metric_name=metric_name,
                                                 calculation_method=calculation_method, decrease=decrease)
        self.skip_channel = check_value_type("skip_channel", skip_channel, [bool])
        self.calculation_method = check_value_type("calculation_method", calculation_method, [bool])
        self.metric_name = check_value_type("metric_name", metric_name, [str])
        decrease_list = ["none", "mean", "sum", "mean_batch", "sum_batch", "mean_channel", "sum_channel"]
        decrease = check_value_type("decrease", decrease, [str])
        self.decrease = check_string(decrease, decrease_list, "decrease")
        self.clear()

    def clear(self):
        self._total_num = 0
        self._class_num = 0
        self._total_tp = 0.0
        self._total_fp = 0.0
        self._total_tn = 0.0
        self._total_fn = 0.0

    @rearrange_inputs
    def update(self, *inputs):
        _two("ConfusionMatrixMetric", inputs)
        y_pred = self._convert_data(inputs[0])
        y = self._convert_data(inputs[1])
        if self.calculation_method:
            score, not_nans = self.confusion_matrix(y_pred, y)
            not_nans = int(not_nans.item())
            self._total_num += score.item() * not_nans
            self._class_num += not_nans
        else:
            cm = self.confusion_matrix(y_pred, y)
            cm, _ = _decrease_metric(cm, "sum")
            self._total_tp += cm[0].item()
            self._total_fp += cm[1].item()
            self._total_tn += cm[2].item()
            self._total_fn += cm[3].item()

    def eval(self):
        if self.calculation_method:
            if self._class_num == 0:
                raise RuntimeError("The 'ConfusionMatrixMetric' can not be calculated, because the number of samples "
                                   "is 0, please check whether your inputs(predicted value, true value) are empty, or "
                                   "has called update method before calling eval method.")
            return self._total_num / self._class_num
        cm = np.array([self._total_tp, self._total_fp, self._total_tn, self._total_fn])
        return _compute_confusion_matrix_metric(self.metric_name, cm)


class _ConfusionMatrix:
    def __init__(self, skip_channel=True, metric_name="hit_rate", calculation_method=False, decrease="mean"):
        self.skip_channel = skip_channel
        self.metric_name = metric_name
        self.calculation_method = calculation_method
        self.decrease = decrease

    def __call__(self, y_pred, y):
        if not np.all(y.astype(np.uint8) == y):
            raise ValueError("For 'ConfusionMatrix.update', the true value (input[1]) must be a binarized ndarray.")
        dims = y_pred.ndim
        if dims < 2:
            raise ValueError("For 'ConfusionMatrix.update', the predicted value (input[0]) must have at least 2 "
                             f"dimensions, but got {dims}.")
        if dims == 2 or (dims == 3 and y_pred.shape[-1] == 1):
            if self.calculation_method:
                self.calculation_method = False
        cm = _get_confusion_matrix(y_pred=y_pred, y=y, skip_channel=self.skip_channel)
        if self.calculation_method:
            if isinstance(self.metric_name, str):
                sub = _compute_confusion_matrix_metric(self.metric_name, cm)
                return _decrease_metric(sub, self.decrease)
            results = []
            for name in self.metric_name:
                sub = _compute_confusion_matrix_metric(name, cm)
                chart, not_nans = _decrease_metric(sub, self.decrease)
                results.extend([chart, not_nans])
            return results
        return cm


def _get_confusion_matrix(y_pred, y, skip_channel=True):
    if not skip_channel:
        y = y[:, 1:] if y.shape[1] > 1 else y
        y_pred = y_pred[:, 1:] if y_pred.shape[1] > 1 else y_pred
    y = y.astype(float)
    y_pred = y_pred.astype(float)
    if y.shape != y_pred.shape:
        raise ValueError(f"y_shape {y.shape} should be equal to y_pred_shape {y_pred.shape}.")
    batch_size, n_class = y_pred.shape[:2]
    y_pred = y_pred.reshape(batch_size, n_class, -1)
    y = y.reshape(batch_size, n_class, -1)
    tp = (y_pred + y == 2).astype(float).sum(axis=2)
    tn = (y_pred + y == 0).astype(float).sum(axis=2)
    p = y.sum(axis=2)
    n = y.shape[-1] - p
    return np.stack([tp, n - tn, tn, p - tp], axis=-1)


def _decrease_metric(chart, decrease="mean"):
    nans = np.isnan(chart)
    not_nans = (~nans).astype(float)
    chart[nans] = 0
    with np.errstate(invalid="ignore", divide="ignore"):
        if decrease == "mean":
            nn_ = not_nans.sum(axis=1)
            chart = np.where(nn_ > 0, chart.sum(axis=1) / nn_, np.zeros(1, dtype=float))
            nn_ = (nn_ > 0).astype(float).sum(axis=0)
            chart = np.where(nn_ > 0, chart.sum(axis=0) / nn_, np.zeros(1, dtype=float))
            not_nans = nn_
        elif decrease == "sum":
            not_nans = not_nans.sum(axis=(0, 1))
            chart = np.sum(chart, axis=(0, 1))
        elif decrease == "mean_batch":
            not_nans = not_nans.sum(axis=0)
            chart = np.where(not_nans > 0, chart.sum(axis=0) / not_nans, np.zeros(1, dtype=float))
        elif decrease == "sum_batch":
            not_nans = not_nans.sum(axis=0)
            chart = chart.sum(axis=0)
        elif decrease == "mean_channel":
            not_nans = not_nans.sum(axis=1)
            chart = np.where(not_nans > 0, chart.sum(axis=1) / not_nans, np.zeros(1, dtype=float))
        elif decrease == "sum_channel":
            not_nans = not_nans.sum(axis=1)
            chart = chart.sum(axis=1)
    return chart, not_nans


_METRIC_NAMES = {
    "sensitivity": "tpr", "recall": "tpr", "hit_rate": "tpr", "true_positive_rate": "tpr", "tpr": "tpr",
    "specificity": "tnr", "selectivity": "tnr", "true_negative_rate": "tnr", "tnr": "tnr",
    "precision": "ppv", "positive_predictive_value": "ppv", "ppv": "ppv",
    "negative_predictive_value": "npv", "npv": "npv",
    "miss_rate": "fnr", "false_negative_rate": "fnr", "fnr": "fnr",
    "fall_out": "fpr", "false_positive_rate": "fpr", "fpr": "fpr",
    "false_discovery_rate": "fdr", "fdr": "fdr", "false_omission_rate": "for", "for": "for",
    "prevalence_threshold": "pt", "pt": "pt", "threat_score": "ts", "critical_success_index": "ts", "ts": "ts",
    "csi": "ts", "accuracy": "acc", "acc": "acc", "balanced_accuracy": "ba", "ba": "ba", "f1_score": "f1",
    "f1": "f1", "matthews_correlation_coefficient": "mcc", "mcc": "mcc", "fowlkes_mallows_index": "fm", "fm": "fm",
    "informedness": "bm", "bookmaker_informedness": "bm", "bm": "bm", "markedness": "mk", "deltap": "mk",
    "mk": "mk"}


def _check_metric_name(metric_name):
    info = _METRIC_NAMES.get(metric_name.replace(" ", "_").lower())
    if info is None:
        raise NotImplementedError("The metric is not implemented.")
    return info


def _nan_div(a, b):
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(b > 0, a / b, np.array(float("nan")))


def _compute_confusion_matrix_metric(metric_name, cm):
    metric = _check_metric_name(metric_name)
    if cm.ndim == 1:
        cm = np.expand_dims(cm, 0)
    if cm.shape[-1] != 4:
        raise ValueError("For 'ConfusionMatrix', the size of the last dimension of confusion_matrix must be 4, but "
                         f"got {cm.shape[-1]}.")
    tp, fp, tn, fn = cm[..., 0], cm[..., 1], cm[..., 2], cm[..., 3]
    p, n = tp + fn, fp + tn
    with np.errstate(invalid="ignore", divide="ignore"):
        if metric == "tpr":
            num, den = tp, p
        elif metric == "tnr":
            num, den = tn, n
        elif metric == "ppv":
            num, den = tp, tp + fp
        elif metric == "npv":
            num, den = tn, tn + fn
        elif metric == "fnr":
            num, den = fn, p
        elif metric == "fpr":
            num, den = fp, n
        elif metric == "fdr":
            num, den = fp, fp + tp
        elif metric == "for":
            num, den = fn, fn + tn
        elif metric == "pt":
            tpr, tnr = _nan_div(tp, p), _nan_div(tn, n)
            num, den = np.sqrt(tpr * (1.0 - tnr)) + tnr - 1.0, tpr + tnr - 1.0
        elif metric == "ts":
            num, den = tp, tp + fn + fp
        elif metric == "acc":
            num, den = tp + tn, p + n
        elif metric == "ba":
            num, den = _nan_div(tp, p) + _nan_div(tn, n), 2.0
        elif metric == "f1":
            num, den = tp * 2.0, tp * 2.0 + fn + fp
        elif metric == "mcc":
            num, den = tp * tn - fp * fn, np.sqrt((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn))
        elif metric == "fm":
            num, den = np.sqrt(_nan_div(tp, tp + fp) * _nan_div(tp, p)), 1.0
        elif metric == "bm":
            num, den = _nan_div(tp, p) + _nan_div(tn, n) - 1.0, 1.0
        else:  # mk
            num, den = _nan_div(tp, tp + fp) + tn / (tn + fn) - 1.0, 1.0
        if isinstance(den, np.ndarray):
            return np.where(den != 0, num / den, np.array(float("nan")))
        return num / den
