"""A small BERT-style encoder for sentence classification: token, position and
segment embeddings, ``nn.TransformerEncoder`` layers (GELU, post-LayerNorm), a
tanh pooler on ``[CLS]`` and a dense classifier."""
import numpy as np

import mindspore.nn as nn
import mindspore.ops as ops
from mindspore import Tensor
from mindspore.common import dtype as mstype
from mindspore.common.initializer import TruncatedNormal


class BertConfig:
    def __init__(self, vocab_size, seq_length=16, hidden_size=32, num_hidden_layers=2, num_attention_heads=4,
                 intermediate_size=64, hidden_dropout_prob=0.1, type_vocab_size=2, initializer_range=0.02):
        self.vocab_size = vocab_size
        self.seq_length = seq_length
        self.hidden_size = hidden_size
        self.num_hidden_layers = num_hidden_layers
        self.num_attention_heads = num_attention_heads
        self.intermediate_size = intermediate_size
        self.hidden_dropout_prob = hidden_dropout_prob
        self.type_vocab_size = type_vocab_size
        self.initializer_range = initializer_range


class BertEmbeddings(nn.Cell):
    def __init__(self, config):
        super().__init__()
        init = TruncatedNormal(config.initializer_range)
        self.word_embeddings = nn.Embedding(config.vocab_size, config.hidden_size, embedding_table=init)
        self.position_embeddings = nn.Embedding(config.seq_length, config.hidden_size, embedding_table=init)
        self.token_type_embeddings = nn.Embedding(config.type_vocab_size, config.hidden_size, embedding_table=init)
        self.layernorm = nn.LayerNorm((config.hidden_size,))
        self.dropout = nn.Dropout(p=config.hidden_dropout_prob)
        self.position_ids = Tensor(np.arange(config.seq_length).reshape(1, -1), mstype.int32)

    def construct(self, input_ids, token_type_ids):
        x = self.word_embeddings(input_ids) + self.position_embeddings(self.position_ids)
        x = x + self.token_type_embeddings(token_type_ids)
        return self.dropout(self.layernorm(x))


class BertModel(nn.Cell):
    """Returns the pooled ``[CLS]`` representation."""

    def __init__(self, config):
        super().__init__()
        self.embeddings = BertEmbeddings(config)
        layer = nn.TransformerEncoderLayer(config.hidden_size, config.num_attention_heads,
                                           dim_feedforward=config.intermediate_size,
                                           dropout=config.hidden_dropout_prob, activation="gelu", batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, config.num_hidden_layers)
        self.pooler = nn.Dense(config.hidden_size, config.hidden_size, activation="tanh",
                               weight_init=TruncatedNormal(config.initializer_range))
        self.not_equal = ops.NotEqual()

    def construct(self, input_ids, input_mask, token_type_ids):
        x = self.embeddings(input_ids, token_type_ids)
        padding = self.not_equal(input_mask, 1)           # True where the token is padding
        x = self.encoder(x, src_key_padding_mask=padding)
        return self.pooler(x[:, 0])


class BertCLSModel(nn.Cell):
    """Logits of ``num_labels`` classes."""

    def __init__(self, config, num_labels, dropout_prob=0.1):
        super().__init__()
        self.bert = BertModel(config)
        self.dropout = nn.Dropout(p=dropout_prob)
        self.dense_1 = nn.Dense(config.hidden_size, num_labels, weight_init=TruncatedNormal(config.initializer_range))

    def construct(self, input_ids, input_mask, token_type_id):
        return self.dense_1(self.dropout(self.bert(input_ids, input_mask, token_type_id)))


class BertCLS(nn.Cell):
    """The classifier with its loss: ``construct(..., label_ids)`` returns the mean cross entropy."""

    def __init__(self, config, num_labels):
        super().__init__()
        self.bert = BertCLSModel(config, num_labels)
        self.loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")

    def construct(self, input_ids, input_mask, token_type_id, label_ids):
        return self.loss(self.bert(input_ids, input_mask, token_type_id), label_ids)


class BertLearningRate(nn.learning_rate_schedule.LearningRateSchedule):
    """Linear warm-up to ``learning_rate``, then polynomial decay to ``end_learning_rate``."""

    def __init__(self, learning_rate, end_learning_rate, warmup_steps, decay_steps, power):
        super().__init__()
        self.warmup_flag = warmup_steps > 0
        if self.warmup_flag:
            self.warmup_lr = nn.WarmUpLR(learning_rate, warmup_steps)
        self.decay_lr = nn.PolynomialDecayLR(learning_rate, end_learning_rate, decay_steps, power)
        self.warmup_steps = Tensor(np.array([warmup_steps]).astype(np.float32))
        self.greater = ops.Greater()
        self.one = Tensor(np.array([1.0]).astype(np.float32))
        self.cast = ops.Cast()

    def construct(self, global_step):
        decay_lr = self.decay_lr(global_step)
        if self.warmup_flag:
            is_warmup = self.cast(self.greater(self.warmup_steps, global_step), mstype.float32)
            warmup_lr = self.warmup_lr(global_step)
            return (self.one - is_warmup) * decay_lr + is_warmup * warmup_lr
        return decay_lr
