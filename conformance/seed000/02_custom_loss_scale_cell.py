import mindspore as ms
from mindspore import nn, ops

_grad_scale = ops.MultitypeFuncGraph("grad_scale")

@_grad_scale.register("Tensor", "Tensor")
def tensor_grad_scale(scale, grad):
    return grad * ops.cast(ops.Reciprocal()(scale), ops.dtype(grad))

class MyTrainOneStepCell(nn.TrainOneStepWithLossScaleCell):
    """
    Network training package class with gradient clip.

    Append an optimizer to the training network after that the construct function can be called to create the backward graph.

    Args:
        network (Cell): The training network.
        optimizer (Cell): Optimizer for updating the weights.
        sens (Number): The adjust parameter. Default value is 1.0.
        grad_clip (bool): Whether clip gradients. Default value is False.
    """

    def __init__(self, network, optimizer, scale_sense=1, grad_clip=False):
        if isinstance(scale_sense, (int, float)):
            scale_sense = nn.FixedLossScaleUpdateCell(scale_sense)
        super(MyTrainOneStepCell, self).__init__(network, optimizer, scale_sense)
        self.grad_clip = grad_clip

    def construct(self, x, img_shape, gt_bboxe, gt_label, gt_num):
        # Most are attributes and methods of base class, and refer to the corresponding base class API for details
        weights = self.weights
        loss = self.network(x, img_shape, gt_bboxe, gt_label, gt_num)
        scaling_sens = self.scale_sense
        # Start floating point overflow detection. Create and clear overflow detection status
        status, scaling_sens = self.start_overflow_check(loss, scaling_sens)
        # Multiply the gradient by a scale to prevent the gradient from overflowing
        scaling_sens_filled = ops.ones_like(loss) * ops.cast(scaling_sens, ops.dtype(loss))
        grads = self.grad(self.network, weights)(x, img_shape, gt_bboxe, gt_label, gt_num, scaling_sens_filled)
        # Calculate the true gradient value by dividing the obtained gradient by the scale
        grads = self.hyper_map(ops.partial(_grad_scale, scaling_sens), grads)
        # Gradient clipping
        if self.grad_clip:
            grads = ops.clip_by_global_norm(grads)
        # Gradient aggregation
        grads = self.grad_reducer(grads)

        # Get floating point overflow status
        cond = self.get_overflow_status(status, grads)
        # Calculate loss scaling factor based on overflow state during dynamic loss scale
        overflow = self.process_loss_scale(cond)
        # If there is no overflow, execute the optimizer to update the parameters
        if not overflow:
            self.optimizer(grads)
        return loss, cond, scaling_sens.value()

# driver (not from the doc): a network with the five inputs of the doc's cell,
# trained with gradient clipping; step 2 feeds an inf, so its gradients overflow
# and the step is skipped (the weights printed after it do not change)
import numpy as np

class Net(nn.Cell):
    def __init__(self):
        super(Net, self).__init__()
        self.fc = nn.Dense(3, 2)
        self.fc.weight.set_data(ms.Tensor(np.array([[0.5, -1.0, 0.25], [1.5, 0.2, -0.75]], np.float32)))
        self.fc.bias.set_data(ms.Tensor(np.array([0.1, -0.3], np.float32)))

    def construct(self, x, img_shape, gt_bboxe, gt_label, gt_num):
        d = self.fc(x) - gt_label
        return (d * d).mean()

net = Net()
train_net = MyTrainOneStepCell(net, nn.Momentum(net.trainable_params(), 0.1, 0.9), scale_sense=1024.0,
                               grad_clip=True)
x = np.array([[1.0, 2.0, -1.0], [0.5, -1.5, 2.0], [-2.0, 0.3, 0.7]], np.float32)
img_shape = ms.Tensor(np.array([32, 32], np.float32))
gt_bboxe = ms.Tensor(np.zeros((3, 4), np.float32))
gt_label = ms.Tensor(np.array([[1.0, 0.0], [0.0, 1.0], [0.5, -0.5]], np.float32))
gt_num = ms.Tensor(np.array([3], np.int32))
for step in range(4):
    xs = x.copy()
    if step == 2:
        xs[0, 0] = np.inf
    loss, cond, scale = train_net(ms.Tensor(xs), img_shape, gt_bboxe, gt_label, gt_num)
    print("step", step, "loss", loss, "overflow", cond, "scale", scale)
    print(net.fc.weight.value())
