//! The built-in layers and losses: what each is called, how it prints (`extra_repr`), how it is
//! built with PyTorch's default initialisation, and its `forward`.

use crate::device::Device;
use crate::dtype::DType;
use crate::error::Error;
use crate::repr::python_float;
use crate::session::Session;
use crate::tensor::Tensor;

use super::functional::{self, Padding, Reduction};
use super::init;
use super::module::{CustomForward, Module};
use super::parameter::Parameter;

/// A module's kind, with the settings its constructor took.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum Layer {
    /// A learner's `nn.Module` subclass.
    Custom {
        class_name: String,
    },
    Linear {
        in_features: usize,
        out_features: usize,
    },
    ReLU,
    Sigmoid,
    Tanh,
    /// `nn.Softmax(dim)` / `nn.LogSoftmax(dim)`; without a dim, PyTorch's legacy choice (with
    /// its deprecation warning).
    Softmax {
        dim: Option<i64>,
        log: bool,
    },
    Identity,
    Dropout {
        p: f64,
    },
    Flatten {
        start_dim: i64,
        end_dim: i64,
    },
    Sequential,
    /// `nn.DataParallel`: `device_ids` empty without GPUs.
    DataParallel {
        device_ids: Vec<usize>,
        output_device: Option<usize>,
        dim: usize,
    },
    /// `DistributedDataParallel`, made by [`crate::distributed::World::data_parallel`].
    DistributedDataParallel {
        device_ids: Vec<usize>,
    },
    Conv2d {
        in_channels: usize,
        out_channels: usize,
        kernel_size: [usize; 2],
        stride: [usize; 2],
        padding: Padding,
        dilation: [usize; 2],
        groups: usize,
    },
    Embedding {
        num_embeddings: usize,
        embedding_dim: usize,
        padding_idx: Option<i64>,
    },
    LayerNorm {
        normalized_shape: Vec<usize>,
        eps: f64,
        elementwise_affine: bool,
    },
    MSELoss {
        reduction: Reduction,
    },
    CrossEntropyLoss {
        reduction: Reduction,
        ignore_index: i64,
    },
    NLLLoss {
        reduction: Reduction,
        ignore_index: i64,
    },
    BCEWithLogitsLoss {
        reduction: Reduction,
    },
}

impl Layer {
    /// The class's import path, as a pickle names it (`torch.nn.modules.linear.Linear`;
    /// `__main__.Net` for a learner's class).
    pub fn qualified_name(&self) -> String {
        let module = match self {
            Layer::Custom { .. } => "__main__",
            Layer::Linear { .. } => "torch.nn.modules.linear",
            Layer::ReLU | Layer::Sigmoid | Layer::Tanh | Layer::Softmax { .. } => {
                "torch.nn.modules.activation"
            }
            Layer::Identity => "torch.nn.modules.linear",
            Layer::Dropout { .. } => "torch.nn.modules.dropout",
            Layer::Flatten { .. } => "torch.nn.modules.flatten",
            Layer::Sequential => "torch.nn.modules.container",
            Layer::DataParallel { .. } => "torch.nn.parallel.data_parallel",
            Layer::DistributedDataParallel { .. } => "torch.nn.parallel.distributed",
            Layer::Conv2d { .. } => "torch.nn.modules.conv",
            Layer::Embedding { .. } => "torch.nn.modules.sparse",
            Layer::LayerNorm { .. } => "torch.nn.modules.normalization",
            Layer::MSELoss { .. }
            | Layer::CrossEntropyLoss { .. }
            | Layer::NLLLoss { .. }
            | Layer::BCEWithLogitsLoss { .. } => "torch.nn.modules.loss",
        };
        format!("{module}.{}", self.class_name())
    }

    pub fn class_name(&self) -> String {
        match self {
            Layer::Custom { class_name } => class_name,
            Layer::Linear { .. } => "Linear",
            Layer::ReLU => "ReLU",
            Layer::Sigmoid => "Sigmoid",
            Layer::Tanh => "Tanh",
            Layer::Softmax { log: false, .. } => "Softmax",
            Layer::Softmax { log: true, .. } => "LogSoftmax",
            Layer::Identity => "Identity",
            Layer::Dropout { .. } => "Dropout",
            Layer::Flatten { .. } => "Flatten",
            Layer::Sequential => "Sequential",
            Layer::DataParallel { .. } => "DataParallel",
            Layer::DistributedDataParallel { .. } => "DistributedDataParallel",
            Layer::Conv2d { .. } => "Conv2d",
            Layer::Embedding { .. } => "Embedding",
            Layer::LayerNorm { .. } => "LayerNorm",
            Layer::MSELoss { .. } => "MSELoss",
            Layer::CrossEntropyLoss { .. } => "CrossEntropyLoss",
            Layer::NLLLoss { .. } => "NLLLoss",
            Layer::BCEWithLogitsLoss { .. } => "BCEWithLogitsLoss",
        }
        .to_owned()
    }

    /// `extra_repr()`: the settings shown inside `Name(...)`.
    pub(crate) fn extra_repr(&self, module: &Module) -> String {
        match self {
            Layer::Linear {
                in_features,
                out_features,
            } => format!(
                "in_features={in_features}, out_features={out_features}, bias={}",
                if module.parameter("bias").is_some() {
                    "True"
                } else {
                    "False"
                }
            ),
            Layer::Dropout { p } => format!("p={}, inplace=False", python_float(*p)),
            Layer::Softmax { dim, .. } => {
                format!(
                    "dim={}",
                    dim.map_or_else(|| "None".to_owned(), |d| d.to_string())
                )
            }
            Layer::Flatten { start_dim, end_dim } => {
                format!("start_dim={start_dim}, end_dim={end_dim}")
            }
            Layer::Conv2d {
                in_channels,
                out_channels,
                kernel_size,
                stride,
                padding,
                dilation,
                groups,
            } => {
                let pair = |p: &[usize; 2]| format!("({}, {})", p[0], p[1]);
                let mut text = format!(
                    "{in_channels}, {out_channels}, kernel_size={}, stride={}",
                    pair(kernel_size),
                    pair(stride)
                );
                match padding {
                    Padding::Same => text.push_str(", padding=same"),
                    Padding::Explicit(p) if *p != [0, 0] => {
                        text.push_str(&format!(", padding={}", pair(p)));
                    }
                    Padding::Explicit(_) => {}
                }
                if *dilation != [1, 1] {
                    text.push_str(&format!(", dilation={}", pair(dilation)));
                }
                if *groups != 1 {
                    text.push_str(&format!(", groups={groups}"));
                }
                if module.parameter("bias").is_none() {
                    text.push_str(", bias=False");
                }
                text
            }
            Layer::Embedding {
                num_embeddings,
                embedding_dim,
                padding_idx,
            } => match padding_idx {
                Some(p) => format!("{num_embeddings}, {embedding_dim}, padding_idx={p}"),
                None => format!("{num_embeddings}, {embedding_dim}"),
            },
            Layer::LayerNorm {
                normalized_shape,
                eps,
                elementwise_affine,
            } => {
                let shape = match normalized_shape.as_slice() {
                    [one] => format!("({one},)"),
                    dims => format!(
                        "({})",
                        dims.iter()
                            .map(ToString::to_string)
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                };
                let flag = |b: bool| if b { "True" } else { "False" };
                format!(
                    "{shape}, eps={}, elementwise_affine={}, bias={}",
                    python_float(*eps),
                    flag(*elementwise_affine),
                    flag(module.parameter("bias").is_some())
                )
            }
            _ => String::new(),
        }
    }

    /// The names of `forward`'s arguments (after `self`).
    fn arguments(&self) -> &'static [&'static str] {
        match self {
            Layer::MSELoss { .. }
            | Layer::CrossEntropyLoss { .. }
            | Layer::NLLLoss { .. }
            | Layer::BCEWithLogitsLoss { .. } => &["input", "target"],
            _ => &["input"],
        }
    }

    pub(crate) fn forward(
        &self,
        module: &Module,
        inputs: &[Tensor],
        custom: &mut CustomForward,
    ) -> Result<Tensor, Error> {
        match self {
            Layer::Custom { .. } => return custom(module, inputs),
            Layer::DataParallel {
                device_ids,
                output_device,
                dim,
            } => {
                return super::parallel::forward(
                    module,
                    device_ids,
                    *output_device,
                    *dim,
                    inputs,
                    custom,
                );
            }
            Layer::DistributedDataParallel { .. } => {
                let inner = module
                    .child("module")
                    .ok_or_else(|| missing_member(self, "module"))?;
                return inner.forward_with(inputs, custom);
            }
            _ => {}
        }
        let arguments = self.arguments();
        if inputs.len() != arguments.len() {
            return Err(Error::LayerArity {
                layer: self.class_name(),
                arguments: arguments.to_vec(),
                got: inputs.len(),
            });
        }
        let x = &inputs[0];
        match self {
            Layer::Custom { .. }
            | Layer::DataParallel { .. }
            | Layer::DistributedDataParallel { .. } => custom(module, inputs),
            Layer::Sequential => {
                let mut current = x.clone();
                for child in module.children() {
                    current = child.forward_with(std::slice::from_ref(&current), custom)?;
                }
                Ok(current)
            }
            Layer::Linear { .. } => {
                let weight = module
                    .parameter("weight")
                    .ok_or_else(|| missing_member(self, "weight"))?;
                let bias = module.parameter("bias").map(|b| b.tensor());
                functional::linear(x, &weight.tensor(), bias.as_ref())
            }
            Layer::Conv2d {
                stride,
                padding,
                dilation,
                groups,
                ..
            } => {
                let weight = module
                    .parameter("weight")
                    .ok_or_else(|| missing_member(self, "weight"))?;
                let bias = module.parameter("bias").map(|b| b.tensor());
                functional::conv2d(
                    x,
                    &weight.tensor(),
                    bias.as_ref(),
                    *stride,
                    *padding,
                    *dilation,
                    *groups,
                )
            }
            Layer::Embedding { padding_idx, .. } => {
                let weight = module
                    .parameter("weight")
                    .ok_or_else(|| missing_member(self, "weight"))?;
                functional::embedding(x, &weight.tensor(), *padding_idx)
            }
            Layer::LayerNorm {
                normalized_shape,
                eps,
                ..
            } => {
                let weight = module.parameter("weight").map(|p| p.tensor());
                let bias = module.parameter("bias").map(|p| p.tensor());
                functional::layer_norm(x, normalized_shape, weight.as_ref(), bias.as_ref(), *eps)
            }
            Layer::ReLU => x.relu(),
            Layer::Sigmoid => x.sigmoid(),
            Layer::Tanh => x.tanh(),
            Layer::Identity => Ok(x.clone()),
            Layer::Softmax { dim, log } => {
                let dim = match dim {
                    Some(d) => *d,
                    None => {
                        let function = if *log { "log_softmax" } else { "softmax" };
                        x.session().warn(&format!(
                            "Implicit dimension choice for {function} has been deprecated. Change the call to include dim=X as an argument."
                        ));
                        // torch.nn.functional._get_softmax_dim
                        if matches!(x.dim(), 0 | 1 | 3) { 0 } else { 1 }
                    }
                };
                if *log {
                    x.log_softmax(dim)
                } else {
                    x.softmax(dim)
                }
            }
            Layer::Dropout { p } => functional::dropout(x, *p, module.training()),
            Layer::Flatten { start_dim, end_dim } => functional::flatten(x, *start_dim, *end_dim),
            Layer::MSELoss { reduction } => functional::mse_loss(x, &inputs[1], *reduction),
            Layer::CrossEntropyLoss {
                reduction,
                ignore_index,
            } => functional::cross_entropy(x, &inputs[1], *reduction, *ignore_index),
            Layer::NLLLoss {
                reduction,
                ignore_index,
            } => functional::nll_loss(x, &inputs[1], *reduction, *ignore_index),
            Layer::BCEWithLogitsLoss { reduction } => {
                functional::binary_cross_entropy_with_logits(x, &inputs[1], *reduction)
            }
        }
    }
}

/// A layer whose parameter was deleted or set to `None`: what Python would say on `self.weight`.
fn missing_member(layer: &Layer, name: &str) -> Error {
    Error::ParameterAssign {
        type_name: "NoneType".into(),
        name: format!("{}.{name}", layer.class_name()),
    }
}

/// The keyword arguments every layer constructor shares: `bias=`, `device=`, `dtype=`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Factory {
    pub bias: bool,
    pub device: Device,
    pub dtype: DType,
}

impl Default for Factory {
    fn default() -> Self {
        Factory {
            bias: true,
            device: Device::CPU,
            dtype: DType::Float32,
        }
    }
}

impl Factory {
    /// What a layer made without `device=` and `dtype=` gets: the session's defaults
    /// (`torch.set_default_device`, `torch.set_default_dtype`).
    pub fn defaults(session: &Session) -> Factory {
        Factory {
            bias: true,
            device: session.default_device().unwrap_or(Device::CPU),
            dtype: session.default_dtype(),
        }
    }
}

impl Module {
    /// A built-in layer as its PyTorch constructor makes it: parameters registered in PyTorch's
    /// order and initialised with its draws (Linear and Conv2d `kaiming_uniform_(a=√5)` weights and
    /// ±1/√fan_in biases, Embedding N(0, 1) with its padding row zeroed, LayerNorm ones and zeros).
    pub fn build(session: &Session, layer: Layer, factory: &Factory) -> Result<Module, Error> {
        let Factory {
            bias,
            device,
            dtype,
        } = *factory;
        let layer = match layer {
            Layer::Embedding {
                num_embeddings,
                embedding_dim,
                padding_idx,
            } => Layer::Embedding {
                num_embeddings,
                embedding_dim,
                padding_idx: padding_idx.map(|p| if p < 0 { p + num_embeddings as i64 } else { p }),
            },
            Layer::Dropout { p } => {
                functional::check_dropout_probability(p)?;
                Layer::Dropout { p }
            }
            other => other,
        };
        let module = Module::new(layer.clone());
        let bias_of = |n: usize| bias.then_some(n);
        match layer {
            Layer::Linear {
                in_features,
                out_features,
            } => register_weight_and_bias(
                &module,
                session,
                &[out_features, in_features],
                bias_of(out_features),
                factory,
            )?,
            Layer::Conv2d {
                in_channels,
                out_channels,
                kernel_size,
                groups,
                ..
            } => register_weight_and_bias(
                &module,
                session,
                &[
                    out_channels,
                    in_channels / groups.max(1),
                    kernel_size[0],
                    kernel_size[1],
                ],
                bias_of(out_channels),
                factory,
            )?,
            Layer::Embedding {
                num_embeddings,
                embedding_dim,
                padding_idx,
            } => {
                let weight =
                    empty_parameter(session, &[num_embeddings, embedding_dim], device, dtype)?;
                init::normal_(&weight.tensor(), 0.0, 1.0)?;
                if let Some(p) = padding_idx {
                    init::constant_(&weight.tensor().select(0, p)?, 0.0)?;
                }
                module.register_parameter("weight", Some(weight))?;
            }
            Layer::LayerNorm {
                normalized_shape,
                elementwise_affine,
                ..
            } => {
                let filled = |value: f64| -> Result<Option<Parameter>, Error> {
                    let p = empty_parameter(session, &normalized_shape, device, dtype)?;
                    init::constant_(&p.tensor(), value)?;
                    Ok(Some(p))
                };
                let (weight, bias) = if elementwise_affine {
                    (filled(1.0)?, if bias { filled(0.0)? } else { None })
                } else {
                    (None, None)
                };
                module.register_parameter("weight", weight)?;
                module.register_parameter("bias", bias)?;
            }
            _ => {}
        }
        Ok(module)
    }

    /// `nn.Sequential(*modules)`: children named `0`, `1`, ….
    pub fn sequential(modules: &[Module]) -> Module {
        let module = Module::new(Layer::Sequential);
        for (i, child) in modules.iter().enumerate() {
            module.add_module(&i.to_string(), Some(child.clone()));
        }
        module
    }
}

/// A parameter of `shape` with uninitialised (zero) values, as `torch.empty` makes it.
fn empty_parameter(
    session: &Session,
    shape: &[usize],
    device: Device,
    dtype: DType,
) -> Result<Parameter, Error> {
    let shape: Vec<i64> = shape.iter().map(|&s| s as i64).collect();
    Parameter::new(&Tensor::empty(session, &shape, dtype, device)?, true)
}

/// `weight` of `weight_shape` and an optional `bias` of `bias_len`, registered in that order and
/// initialised as `nn.Linear` and `nn.Conv2d` do.
fn register_weight_and_bias(
    module: &Module,
    session: &Session,
    weight_shape: &[usize],
    bias_len: Option<usize>,
    factory: &Factory,
) -> Result<(), Error> {
    let weight = empty_parameter(session, weight_shape, factory.device, factory.dtype)?;
    let bias = bias_len
        .map(|n| empty_parameter(session, &[n], factory.device, factory.dtype))
        .transpose()?;
    init::default_weight_and_bias(
        &weight.tensor(),
        bias.as_ref().map(Parameter::tensor).as_ref(),
    )?;
    module.register_parameter("weight", Some(weight))?;
    module.register_parameter("bias", bias)?;
    Ok(())
}
