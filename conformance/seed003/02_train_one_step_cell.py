import mindspore as ms
from mindspore import nn, ops
from mindspore.ops import GradOperation
from mindspore.nn import DistributedGradReducer
from mindspore.parallel._utils import _get_device_num, _get_gradients_mean, _get_parallel_mode

class GradNetWrtX(nn.Cell):
    def __init__(self, net):
        super(GradNetWrtX, self).__init__()
        self.net = net
        self.grad_op = GradOperation()
    def construct(self, x, y):
        gradient_function = self.grad_op(self.net)
        return gradient_function(x, y)

from mindspore.nn import Cell

class TrainOneStepCell(Cell):
    def __init__(self, network, optimizer, sens=1.0):
        super(TrainOneStepCell, self).__init__(auto_prefix=False)
        self.network = network
        # set require_grad=True for Parameters in network
        self.network.set_grad()
        self.optimizer = optimizer
        self.weights = self.optimizer.parameters
        self.grad = ops.GradOperation(get_by_list=True, sens_param=True)
        # set init value for back propagation
        self.sens = sens
        # reduce_flag, used in distributed training
        self.reducer_flag = False
        self.grad_reducer = ops.identity
        self.parallel_mode = _get_parallel_mode()
        self.reducer_flag = self.parallel_mode in (ms.ParallelMode.DATA_PARALLEL, ms.ParallelMode.HYBRID_PARALLEL)
        if self.reducer_flag:
            self.mean = _get_gradients_mean()
            # number of devices
            self.degree = _get_device_num()
            self.grad_reducer = DistributedGradReducer(self.weights, self.mean, self.degree)

    def construct(self, *inputs):
        # get the loss of forward
        loss = self.network(*inputs)
        # set init value for backward propagation
        sens = ops.fill(loss.dtype, loss.shape, self.sens)
        # perform backward propagation
        grads = self.grad(self.network, self.weights)(*inputs, sens)
        grads = self.grad_reducer(grads)
        loss = ops.depend(loss, self.optimizer(grads))
        return loss

# driver (not from the doc): the doc's GradNetWrtX on a two-input network, and
# its TrainOneStepCell training a fixed Dense(3, 2) with MSELoss and Momentum
import numpy as np


class MulNet(nn.Cell):
    def __init__(self):
        super(MulNet, self).__init__()
        self.w = ms.Parameter(ms.Tensor(np.array([[1.0, -2.0], [0.5, 3.0]], np.float32)), name="w")

    def construct(self, x, y):
        return ops.matmul(x * self.w, y)


x = ms.Tensor(np.array([[0.5, 1.0], [2.0, -1.0]], np.float32))
y = ms.Tensor(np.array([[1.0, 2.0], [3.0, 4.0]], np.float32))
print(GradNetWrtX(MulNet())(x, y))

net = nn.Dense(3, 2)
net.weight.set_data(ms.Tensor(np.array([[0.5, -1.0, 0.25], [1.5, 0.2, -0.75]], np.float32)))
net.bias.set_data(ms.Tensor(np.array([0.1, -0.3], np.float32)))
x = ms.Tensor(np.array([[1.0, 2.0, -1.0], [0.5, -1.5, 2.0], [-2.0, 0.3, 0.7]], np.float32))
y = ms.Tensor(np.array([[1.0, 0.0], [0.0, 1.0], [0.5, -0.5]], np.float32))
train_net = TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.Momentum(net.trainable_params(), 0.05, 0.9),
                             sens=2.0)
for step in range(3):
    print("step", step, "loss", train_net(x, y))
print(net.weight.value())
