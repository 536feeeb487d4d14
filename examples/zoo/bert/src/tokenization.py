"""A whitespace tokenizer over a BERT-style ``vocab.txt`` (one token a line)."""
import numpy as np


def load_vocab(vocab_file):
    with open(vocab_file, "r") as f:
        return {token.strip(): i for i, token in enumerate(f) if token.strip()}


class FullTokenizer:
    """``[CLS] tokens... [SEP]`` ids padded with ``[PAD]`` to ``seq_length``, the
    attention mask and all-zero segment ids (single-sentence tasks)."""

    def __init__(self, vocab_file, seq_length):
        self.vocab = load_vocab(vocab_file)
        self.seq_length = seq_length
        self.unk = self.vocab["[UNK]"]

    def __call__(self, sentence):
        text = sentence.item() if isinstance(sentence, np.ndarray) else sentence
        if isinstance(text, bytes):
            text = text.decode("utf-8")
        words = str(text).lower().split()[:self.seq_length - 2]
        ids = [self.vocab["[CLS]"]] + [self.vocab.get(w, self.unk) for w in words] + [self.vocab["[SEP]"]]
        input_ids = np.zeros(self.seq_length, np.int32)
        input_ids[:len(ids)] = ids
        input_mask = (np.arange(self.seq_length) < len(ids)).astype(np.int32)
        return input_ids, input_mask, np.zeros(self.seq_length, np.int32)
