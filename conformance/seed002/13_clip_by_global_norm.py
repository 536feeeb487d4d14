# setup from earlier example
import mindspore as ms
from mindspore import nn

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
net.fc.weight.set_data(ms.Tensor([[2, 3, 4]], ms.float32)) # 给全连接的weight设置固定值

x = ms.Tensor([[1, 2, 3]], ms.float32)
y = ms.Tensor(19, ms.float32)
# end of setup

# setup from earlier example
from mindspore.amp import StaticLossScaler, all_finite

loss_scale = StaticLossScaler(1024.) # 静态lossscale

def forward_fn(x, y):
    loss, logits = net(x, y)
    loss = loss_scale.scale(loss)
    return loss, logits

value_and_grad_func = ms.value_and_grad(forward_fn, grad_position=None, weights=net.trainable_params(), has_aux=True)
(loss, logits), grad = value_and_grad_func(x, y)
loss = loss_scale.unscale(loss)
grad = loss_scale.unscale(grad)
# end of setup

from mindspore import ops

grad = ops.clip_by_global_norm(grad)
