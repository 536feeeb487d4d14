import numpy as np
class MyDataset():
    """Self Defined dataset."""
    def __init__(self, n):
        self.data = []
        self.label = []
        for _ in range(n):
            self.data.append(np.zeros((3, 4, 5)))
            self.label.append(np.ones((1)))
    def __len__(self):
        return len(self.data)
    def __getitem__(self, idx):
        self.data = self.data[idx]
        self.label = self.label[idx]
        return data, label

import mindspore.dataset as ds

my_dataset = MyDataset(100)
# corresponding to torch.utils.data.DataLoader(my_dataset)
dataset = ds.GeneratorDataset(my_dataset, column_names=["data", "label"])

# driver (not from the doc): what the dataset reports without reading a sample
# (the doc's __getitem__ refers to undefined names, so it is never iterated here),
# then the same flow over a corrected source, iterated both ways the doc shows
print(dataset.get_dataset_size(), dataset.get_col_names())


class FixedDataset():
    def __init__(self, n):
        self.data = [np.full((3, 4, 5), i, np.float32) for i in range(n)]
        self.label = [np.ones((1), np.int32) * i for i in range(n)]
    def __len__(self):
        return len(self.data)
    def __getitem__(self, idx):
        return self.data[idx], self.label[idx]


dataset = ds.GeneratorDataset(FixedDataset(10), column_names=["data", "label"], shuffle=False,
                              num_samples=6, num_parallel_workers=2)
dataset = dataset.batch(4)
# method 1: create a tuple iterator
for columns in dataset.create_dict_iterator():
    # type of columns is dict
    data = columns['data']
    label = columns['label']
    print(type(columns).__name__, data.shape, data.dtype, label.asnumpy().ravel().tolist())
# method 2: create a dict iterator
for columns in dataset.create_tuple_iterator():
    # type of columns is tuple
    data = columns[0]
    label = columns[1]
    print(type(columns).__name__, data.shape, float(data.sum()), label.dtype)
sharded = ds.GeneratorDataset(FixedDataset(10), column_names=["data", "label"], shuffle=False,
                              num_shards=2, shard_id=1)
print([int(c["label"][0]) for c in sharded.create_dict_iterator(output_numpy=True)])
