"""MindSpore's gradient guide as one script (unmodified MindSpore code).

Run it on msjax:  python -m msjax run examples/gradients.py
"""
import numpy as np

import mindspore as ms
from mindspore import nn, ops, Tensor, Parameter, ParameterTuple
from mindspore.amp import StaticLossScaler, all_finite


class Net(nn.Cell):
    def __init__(self, in_channel, out_channel):
        super(Net, self).__init__()
        self.fc = nn.Dense(in_channel, out_channel, has_bias=False)
        self.loss = nn.MSELoss()

    def construct(self, x, y):
        logits = self.fc(x).squeeze()
        loss = self.loss(logits, y)
        return loss, logits


net = Net(3, 1)
net.fc.weight.set_data(ms.Tensor([[2, 3, 4]], ms.float32))
x = ms.Tensor([[1, 2, 3]], ms.float32)
y = ms.Tensor(19, ms.float32)
print("=== forward ===")
print(*net(x, y))

print("=== ms.grad table ===")
for grad_position, weights in [(0, None), (1, None), ((0, 1), None), (None, net.trainable_params()),
                               (0, net.trainable_params()), ((0, 1), net.trainable_params())]:
    grad, aux = ms.grad(net, grad_position=grad_position, weights=weights, has_aux=True)(x, y)
    print(f"grad_position={grad_position}, weights={'params' if weights else None}:", grad)

print("=== value_and_grad ===")
value, grad = ms.value_and_grad(net, grad_position=(0, 1), weights=net.trainable_params(), has_aux=True)(x, y)
print("value", value)
print("grad", grad)

print("=== loss scale ===")
loss_scale = StaticLossScaler(1024.)


def forward_fn(x, y):
    loss, logits = net(x, y)
    loss = loss_scale.scale(loss)
    return loss, logits


(loss, logits), grad = ms.value_and_grad(forward_fn, None, net.trainable_params(), has_aux=True)(x, y)
grad = loss_scale.unscale(grad)
print("loss", loss_scale.unscale(loss), "finite", all_finite(grad))
print("clipped", ops.clip_by_global_norm(grad))


print("=== GradOperation ===")
class MatMulNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.matmul = ops.MatMul()
        self.z = Parameter(Tensor(np.array([1.0], np.float32)), name='z')

    def construct(self, x, y):
        return self.matmul(x * self.z, y)


class GradNet(nn.Cell):
    def __init__(self, net):
        super().__init__()
        self.net = net
        self.params = ParameterTuple(net.trainable_params())
        self.grad_op = ops.GradOperation(get_all=True, get_by_list=True)

    def construct(self, x, y):
        return self.grad_op(self.net, self.params)(x, y)


a = Tensor([[0.8, 0.6, 0.2], [1.8, 1.3, 1.1]], ms.float32)
b = Tensor([[0.11, 3.3, 1.1], [1.1, 0.2, 1.4], [1.1, 2.2, 0.3]], ms.float32)
print(GradNet(MatMulNet())(a, b))

print("=== a few SGD steps, compiled ===")
ms.set_context(mode=ms.GRAPH_MODE)
grad_fn = ms.value_and_grad(net, None, net.trainable_params(), has_aux=True)
for step in range(3):
    (loss, _), (g,) = grad_fn(x, y)
    net.fc.weight.set_data(net.fc.weight - 0.01 * g)
    print(f"step {step}: loss {loss}")
