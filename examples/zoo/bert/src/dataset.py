"""Text classification CSV (``label,sentence``) -> BERT inputs."""
import mindspore.common.dtype as mstype
import mindspore.dataset as ds
import mindspore.dataset.transforms as transforms

from .tokenization import FullTokenizer

COLUMNS = ["input_ids", "input_mask", "segment_ids", "label_ids"]


def create_classification_dataset(csv_file, vocab_file, batch_size=16, seq_length=16, do_shuffle=True):
    data_set = ds.CSVDataset(csv_file, column_defaults=[0, ""], shuffle=do_shuffle)
    data_set = data_set.map(operations=FullTokenizer(vocab_file, seq_length), input_columns=["sentence"],
                            output_columns=["input_ids", "input_mask", "segment_ids"])
    data_set = data_set.rename(input_columns=["label"], output_columns=["label_ids"])
    data_set = data_set.map(operations=transforms.TypeCast(mstype.int32), input_columns="label_ids")
    data_set = data_set.project(COLUMNS)
    return data_set.batch(batch_size, drop_remainder=True)
