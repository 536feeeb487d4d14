import mindspore as ms
from mindspore import ops, nn
from mindspore.parallel._utils import (_get_device_num, _get_gradients_mean,
                                       _get_parallel_mode)

class TrainOneStepCell(nn.Cell):
    def __init__(self, network, optimizer):
        super(TrainOneStepCell, self).__init__(auto_prefix=False)
        self.network = network  # Network structure with loss
        self.network.set_grad()  # Required for PYNATIVE mode. If True, the inverse network requiring the computation of gradients will be generated when the forward network is executed.
        self.optimizer = optimizer  # Optimizer for parameter updates
        self.weights = self.optimizer.parameters  # Get the parameters of the optimizer

        # Related logic of parallel computation
        self.reducer_flag = False
        self.grad_reducer = ops.identity
        self.parallel_mode = _get_parallel_mode()
        self.reducer_flag = self.parallel_mode in (ms.ParallelMode.DATA_PARALLEL, ms.ParallelMode.HYBRID_PARALLEL)
        if self.reducer_flag:
            self.mean = _get_gradients_mean()
            self.degree = _get_device_num()
            self.grad_reducer = nn.DistributedGradReducer(self.weights, self.mean, self.degree)

    def construct(self, *inputs):
        loss, grads = ms.value_and_grad(self.network, grad_position=None, weights=self.weights)(*inputs)  # obtain the loss and get the gradient of all Parameter free variables
        # grads = grad_op(grads)    # Some computing logic for the gradient can be added here, such as gradient clipping
        grads = self.grad_reducer(grads)  # Gradient aggregation
        self.optimizer(grads)  # Optimizer updates parameters
        return loss

# driver (not from the doc): a fixed linear regression trained for 4 steps
import numpy as np

net = nn.Dense(3, 2)
net.weight.set_data(ms.Tensor(np.array([[0.5, -1.0, 0.25], [1.5, 0.2, -0.75]], np.float32)))
net.bias.set_data(ms.Tensor(np.array([0.1, -0.3], np.float32)))
x = ms.Tensor(np.array([[1.0, 2.0, -1.0], [0.5, -1.5, 2.0], [-2.0, 0.3, 0.7]], np.float32))
y = ms.Tensor(np.array([[1.0, 0.0], [0.0, 1.0], [0.5, -0.5]], np.float32))
train_net = TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.Momentum(net.trainable_params(), 0.05, 0.9))
for step in range(4):
    print("step", step, "loss", train_net(x, y))
print(net.weight.value())
print(net.bias.value())
