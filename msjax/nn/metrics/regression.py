"""Error and score metrics: MAE, MSE, Loss, Perplexity, CosineSimilarity, Dice,
BleuScore, ROC and ``auc`` (MindSpore 2.10's semantics and messages)."""
from __future__ import annotations

import math

from collections import Counter

import numpy as np

from .metric import Metric, binary_clf_curve, check_string, check_value_type, rearrange_inputs

__all__ = ["MAE", "MSE", "Loss", "Perplexity", "CosineSimilarity", "Dice", "BleuScore", "ROC", "auc"]


class _Error(Metric):
    _name = ""

    def __init__(self):
        super().__init__()
        self.clear()

    def clear(self):
        self._error_sum = 0
        self._samples_num = 0

    def _err(self, d):
        raise NotImplementedError

    @rearrange_inputs
    def update(self, *inputs):
        if len(inputs) != 2:
            raise ValueError(f"For '{self._name}.update', it needs 2 inputs (predicted value, true value), but got "
                             f"{len(inputs)}.")
        y_pred = self._convert_data(inputs[0])
        y = self._convert_data(inputs[1])
        # MindSpore runs on numpy 1, where ``0 + float32 scalar`` is float64: keep its result dtype
        self._error_sum += np.float64(self._err(y.reshape(y_pred.shape) - y_pred).sum())
        self._samples_num += y.shape[0]

    def eval(self):
        if self._samples_num == 0:
            raise RuntimeError(f"The '{self._name}' can not be calculated, because the number of samples is 0, please "
                               "check whether your inputs(predicted value, true value) are empty, or has called "
                               "update method before calling eval method.")
        return self._error_sum / self._samples_num


class MAE(_Error):
    """Mean absolute error per sample (sum of |y - y_pred| over the first axis count)."""

    _name = "MAE"

    def _err(self, d):
        return np.abs(d)


class MSE(_Error):
    """Mean squared error per sample."""

    _name = "MSE"

    def _err(self, d):
        return np.power(d, 2)


class Loss(Metric):
    """Average of the loss values given to ``update``."""

    def __init__(self):
        super().__init__()
        self.clear()

    def clear(self):
        self._sum_loss = 0
        self._total_num = 0

    @rearrange_inputs
    def update(self, *inputs):
        if len(inputs) != 1:
            raise ValueError(f"For 'Loss.update', it needs 1 input (loss), but got {len(inputs)}")
        loss = self._convert_data(inputs[0])
        if loss.ndim == 0:
            loss = loss.reshape(1)
        if loss.ndim != 1:
            raise ValueError(f"For 'Loss.update', the dimension of your input (loss) must be 1, but got {loss.ndim}.")
        self._sum_loss += np.float64(loss.mean(-1))   # float64 as on MindSpore's numpy 1
        self._total_num += 1

    def eval(self):
        if self._total_num == 0:
            raise RuntimeError("The 'Loss' can not be calculated, because the number of samples is 0, please check "
                               "whether has called update method before calling eval method.")
        return self._sum_loss / self._total_num


class Perplexity(Metric):
    """``exp`` of the mean negative log-likelihood of the labels."""

    def __init__(self, ignore_label=None):
        super().__init__()
        self.ignore_label = ignore_label if ignore_label is None else \
            check_value_type("ignore_label", ignore_label, [int])
        self.clear()

    def clear(self):
        self._sum_metric = 0.0
        self._num_inst = 0

    @rearrange_inputs
    def update(self, *inputs):
        if len(inputs) != 2:
            raise ValueError(f"For 'Perplexity.update', it needs 2 inputs (predicted value, label), but got "
                             f"{len(inputs)}.")
        pred = self._convert_data(inputs[0])
        label = self._convert_data(inputs[1])
        if label.size != pred.size / pred.shape[-1]:
            raise RuntimeError("For 'Perplexity.update', predicted value (input[0]) and label (input[1]) should have "
                               f"the same shape, but got predicted value shape {pred.shape}, label shape "
                               f"{label.shape}.")
        label = label.reshape((label.size,))
        idx = np.expand_dims(label.astype(int), axis=1)
        first = np.arange(idx.shape[0])[:, None]
        pred = np.squeeze(pred[first, idx])
        num = 0
        if self.ignore_label is not None:
            ignore = (label == self.ignore_label).astype(pred.dtype)
            num -= np.sum(ignore)
            pred = pred * (1 - ignore) + ignore
        loss = -np.sum(np.log(np.maximum(1e-10, pred)))
        num += pred.size
        self._sum_metric += loss
        self._num_inst += num

    def eval(self):
        if self._num_inst == 0:
            raise RuntimeError("The 'Perplexity' can not be calculated, because the number of samples is 0, please "
                               "check whether the update method has been called before calling eval method.")
        return math.exp(self._sum_metric / self._num_inst)


class CosineSimilarity(Metric):
    """Pairwise similarity matrix of the rows of the input."""

    def __init__(self, similarity="cosine", reduction="none", zero_diagonal=True):
        super().__init__()
        self.similarity = check_string(check_value_type("similarity", similarity, [str]), ["dot", "cosine"],
                                       "similarity")
        self.reduction = check_string(check_value_type("reduction", reduction, [str]), ["none", "sum", "mean"],
                                      "reduction")
        self.zero_diagonal = check_value_type("zero_diagonal", zero_diagonal, [bool])
        self.clear()

    def clear(self):
        self.sqr_mtx_res = 0
        self._is_update = False

    @rearrange_inputs
    def update(self, inputs):
        data = self._convert_data(inputs)
        if self.similarity == "cosine":
            data = data / np.expand_dims(np.linalg.norm(data, ord=2, axis=1), 1)
        self.sqr_mtx_res = np.dot(data, data.transpose(1, 0))
        self._is_update = True

    def eval(self):
        if not self._is_update:
            raise RuntimeError("Please call the 'update' method before calling 'eval' method.")
        if self.zero_diagonal:
            np.fill_diagonal(self.sqr_mtx_res, 0)
        if self.reduction == "mean":
            self.sqr_mtx_res = np.mean(self.sqr_mtx_res, axis=-1)
        if self.reduction == "sum":
            self.sqr_mtx_res = np.sum(self.sqr_mtx_res, axis=-1)
        return self.sqr_mtx_res


class Dice(Metric):
    """Mean Dice coefficient ``2|A.B| / (|A|^2 + |B|^2 + smooth)`` over updates, per sample."""

    def __init__(self, smooth=1e-5):
        super().__init__()
        if not isinstance(smooth, float) or isinstance(smooth, bool):
            raise TypeError(f"The type of 'smooth' should be float, but got {type(smooth).__name__}.")
        if smooth <= 0:
            raise ValueError(f"'smooth' must be positive float, but got {smooth}.")
        self.smooth = smooth
        self.clear()

    def clear(self):
        self._dice_coeff_sum = 0
        self._samples_num = 0

    @rearrange_inputs
    def update(self, *inputs):
        if len(inputs) != 2:
            raise ValueError(f"For 'Dice.update', it needs 2 inputs (predicted value, true value), but got "
                             f"{len(inputs)}.")
        y_pred = self._convert_data(inputs[0])
        y = self._convert_data(inputs[1])
        self._samples_num += y.shape[0]
        if y_pred.shape != y.shape:
            raise ValueError("For 'Dice.update', predicted value (input[0]) and true value (input[1]) should have "
                             f"same shape, but got predicted value shape: {y_pred.shape}, true value shape: "
                             f"{y.shape}.")
        inter = np.dot(y_pred.flatten(), y.flatten())
        union = np.dot(y_pred.flatten(), y_pred.flatten()) + np.dot(y.flatten(), y.flatten())
        self._dice_coeff_sum += 2 * float(inter) / float(union + self.smooth)

    def eval(self):
        if self._samples_num == 0:
            raise RuntimeError("The 'Dice coefficient' can not be calculated, because the number of samples is 0, "
                               "please check whether your inputs(predicted value, true value) are empty, or has "
                               "called update method before calling eval method.")
        return self._dice_coeff_sum / float(self._samples_num)


class BleuScore(Metric):
    """Corpus BLEU of tokenised candidates against lists of references."""

    def __init__(self, n_gram=4, smooth=False):
        super().__init__()
        self.n_gram = check_value_type("n_gram", n_gram, [int])
        if self.n_gram > 4 or self.n_gram < 1:
            raise ValueError(f"For 'BleuScore', the argument 'n_gram' should range from 1 to 4, but got {n_gram}.")
        self.smooth = check_value_type("smooth", smooth, [bool])
        self.clear()

    def clear(self):
        self._numerator = np.zeros(self.n_gram)
        self._denominator = np.zeros(self.n_gram)
        self._c = 0.0
        self._r = 0.0
        self._trans_len = 0
        self._ref_len = 0
        self._is_update = False

    def _count_ngram(self, tokens, n_gram):
        counter = Counter()
        for i in range(1, n_gram + 1):
            for j in range(len(tokens) - i + 1):
                counter[tuple(tokens[j:i + j])] += 1
        return counter

    @rearrange_inputs
    def update(self, *inputs):
        if len(inputs) != 2:
            raise ValueError("For 'BleuScore.update', it needs 2 inputs (candidate_corpus, reference_corpus), but got "
                             f"{len(inputs)}.")
        candidates, references_corpus = inputs
        if len(candidates) != len(references_corpus):
            raise ValueError("For 'BleuScore.update', 'translate_corpus' (inputs[0]) and 'reference_corpus' "
                             f"(inputs[1]) should be equal in length, but got {len(candidates)}, "
                             f"{len(references_corpus)}")
        for candidate, references in zip(candidates, references_corpus):
            self._c += len(candidate)
            ref_lens = [len(ref) for ref in references]
            diffs = [abs(len(candidate) - x) for x in ref_lens]
            self._r += ref_lens[diffs.index(min(diffs))]
            trans = self._count_ngram(candidate, self.n_gram)
            ref_counter = Counter()
            for ref in references:
                ref_counter |= self._count_ngram(ref, self.n_gram)
            clip = trans & ref_counter
            for g in clip:
                self._numerator[len(g) - 1] += clip[g]
            for g in trans:
                self._denominator[len(g) - 1] += trans[g]
        self._trans_len = np.array(self._c)
        self._ref_len = np.array(self._r)
        self._is_update = True

    def eval(self):
        if self._is_update is False:
            raise RuntimeError("Please call the 'update' method before calling 'eval' method.")
        if min(self._numerator) == 0.0:
            return np.array(0.0)
        if self.smooth:
            precision = np.add(self._numerator, np.ones(self.n_gram)) / np.add(self._denominator, np.ones(self.n_gram))
        else:
            precision = self._numerator / self._denominator
        log_p = np.array([1.0 / self.n_gram] * self.n_gram) * np.log(precision)
        geometric_mean = np.exp(np.sum(log_p))
        bp = np.array(1.0) if self._c > self._r else np.exp(1 - self._ref_len / self._trans_len)
        return bp * geometric_mean


def _roc_inputs(y_pred, y, class_num, pos_label):
    if not (len(y_pred.shape) == len(y.shape) or len(y_pred.shape) == len(y.shape) + 1):
        raise ValueError("For 'ROC', predicted value (input[0]) and true value (input[1]) must have same dimensions, "
                         "or the dimension of predicted value equal the dimension of true value add 1, but got "
                         f"predicted value ndim: {len(y_pred.shape)}, true value ndim: {len(y.shape)}.")
    if len(y_pred.shape) == len(y.shape):
        if class_num is not None and class_num != 1:
            raise ValueError("For 'ROC', when predicted value (input[0]) and true value (input[1]) have the same "
                             f"shape, the 'class_num' must be 1, but got {class_num}.")
        class_num = 1
        if pos_label is None:
            pos_label = 1
        y_pred = y_pred.flatten()
        y = y.flatten()
    else:
        if pos_label is not None:
            raise ValueError("For 'ROC', when the dimension of predicted value (input[0]) equals the dimension of "
                             "true value (input[1]) add 1, the 'pos_label' must be None, but got "
                             f"{pos_label}.")
        if class_num != y_pred.shape[1]:
            raise ValueError("For 'ROC', the 'class_num' must equal the number of classes from predicted value "
                             f"(input[0]), but got 'class_num' {class_num}, the number of classes from predicted "
                             f"value {y_pred.shape[1]}.")
        y_pred = y_pred.transpose(0, 1).reshape(class_num, -1).transpose(0, 1)
        y = y.flatten()
    return y_pred, y, class_num, pos_label


class ROC(Metric):
    """Receiver operating characteristic: ``eval()`` gives (fpr, tpr, thresholds)
    (lists of them, one per class, for multi-class inputs)."""

    def __init__(self, class_num=None, pos_label=None):
        super().__init__()
        self.class_num = class_num if class_num is None else check_value_type("class_num", class_num, [int])
        self.pos_label = pos_label if pos_label is None else check_value_type("pos_label", pos_label, [int])
        self.clear()

    def clear(self):
        self.y_pred = 0
        self.y = 0
        self.sample_weights = None
        self._is_update = False

    @rearrange_inputs
    def update(self, *inputs):
        if len(inputs) != 2:
            raise ValueError(f"For 'ROC.update', it needs 2 inputs (predicted value, true value), but got "
                             f"{len(inputs)}")
        y_pred = self._convert_data(inputs[0])
        y = self._convert_data(inputs[1])
        self.y_pred, self.y, self.class_num, self.pos_label = _roc_inputs(y_pred, y, self.class_num, self.pos_label)
        self._is_update = True

    def _roc_eval(self, y_pred, y, class_num, pos_label, sample_weights=None):
        if class_num == 1:
            fps, tps, thresholds = binary_clf_curve(y_pred, y, sample_weights=sample_weights, pos_label=pos_label)
            tps = np.squeeze(np.hstack([np.zeros(1, dtype=tps.dtype), tps]))
            fps = np.squeeze(np.hstack([np.zeros(1, dtype=fps.dtype), fps]))
            thresholds = np.hstack([thresholds[0][None] + 1, thresholds])
            if fps[-1] <= 0:
                raise ValueError("For 'ROC.eval', there is no negative samples in true value, false positive value is "
                                 "meaningless.")
            if tps[-1] <= 0:
                raise ValueError("For 'ROC.eval', there is no positive samples in true value, true positive value is "
                                 "meaningless.")
            return fps / fps[-1], tps / tps[-1], thresholds
        fpr, tpr, thresholds = [], [], []
        for c in range(class_num):
            p, t, _, _ = _roc_inputs(y_pred[:, c], y, 1, c)
            res = self._roc_eval(p, t, 1, c, sample_weights)
            fpr.append(res[0])
            tpr.append(res[1])
            thresholds.append(res[2])
        return fpr, tpr, thresholds

    def eval(self):
        if self._is_update is False:
            raise RuntimeError("Please call the 'update' method before calling 'eval' method.")
        return self._roc_eval(np.squeeze(self.y_pred), np.squeeze(self.y), self.class_num, self.pos_label)


def _column_or_1d(y):
    shape = np.shape(y)
    if len(shape) == 1 or (len(shape) == 2 and shape[1] == 1):
        return np.ravel(y)
    raise ValueError("For 'auc', the input must be a 1-dimensional array, or a 2-dimensional array with the second "
                     f"dimension of 1, but got shape {shape}.")


def auc(x, y, reorder=False):
    """Area under a curve by the trapezoidal rule (``x`` monotonic unless ``reorder``)."""
    if not isinstance(x, np.ndarray) or not isinstance(y, np.ndarray):
        raise TypeError(f"For 'auc', the argument 'x' and 'y' must all be np.ndarray, but got {type(x)}, {type(y)}")
    if x.ndim == 0 or y.ndim == 0:
        raise TypeError("Singleton array cannot be considered as a valid collection.")
    if x.shape[0] != y.shape[0]:
        raise ValueError(f"Found input variables with inconsistent numbers of samples: {[x.shape[0], y.shape[0]]}.")
    x = _column_or_1d(x)
    y = _column_or_1d(y)
    if x.shape[0] < 2:
        raise ValueError(f"For 'auc', the shape of the argument 'x' in axis 0 must be greater than 2, but got "
                         f"{x.shape[0]}.")
    direction = 1
    if reorder:
        order = np.lexsort((y, x))
        x, y = x[order], y[order]
    else:
        dx = np.diff(x)
        if np.any(dx < 0):
            if np.all(dx <= 0):
                direction = -1
            else:
                raise ValueError("For 'auc', if the argument is False, the argument 'x' array must be increasing or "
                                 f"decreasing, but got 'x': {x}")
    trapezoid = getattr(np, "trapezoid", None) or np.trapz
    area = direction * trapezoid(y, x)
    if isinstance(area, np.memmap):
        area = area.dtype.type(area)
    return area


