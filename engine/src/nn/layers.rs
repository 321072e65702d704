//! The built-in layers and losses: what each is called, how it prints (`extra_repr`), how it is
//! built with PyTorch's default initialisation, and its `forward`.

use crate::device::Device;
use crate::dtype::DType;
use crate::error::Error;
use crate::repr::python_float;
use crate::session::Session;
use crate::tensor::Tensor;

use super::functional::{self, Reduction};
use super::init;
use super::module::{CustomForward, Module};
use super::parameter::Parameter;

/// A module's kind, with the settings its constructor took.
#[derive(Debug, Clone, PartialEq)]
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
    Dropout {
        p: f64,
    },
    Flatten {
        start_dim: i64,
        end_dim: i64,
    },
    Sequential,
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
    pub fn class_name(&self) -> String {
        match self {
            Layer::Custom { class_name } => class_name,
            Layer::Linear { .. } => "Linear",
            Layer::ReLU => "ReLU",
            Layer::Sigmoid => "Sigmoid",
            Layer::Tanh => "Tanh",
            Layer::Dropout { .. } => "Dropout",
            Layer::Flatten { .. } => "Flatten",
            Layer::Sequential => "Sequential",
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
            Layer::Flatten { start_dim, end_dim } => {
                format!("start_dim={start_dim}, end_dim={end_dim}")
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
        if let Layer::Custom { .. } = self {
            return custom(module, inputs);
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
            Layer::Custom { .. } => custom(module, inputs),
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
            Layer::ReLU => x.relu(),
            Layer::Sigmoid => x.sigmoid(),
            Layer::Tanh => x.tanh(),
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

impl Module {
    /// `nn.Linear(in_features, out_features, bias, device, dtype)`, initialised as PyTorch does:
    /// weight `kaiming_uniform_(a=√5)`, bias uniform in ±1/√in_features.
    pub fn linear(
        session: &Session,
        in_features: usize,
        out_features: usize,
        bias: bool,
        device: Device,
        dtype: DType,
    ) -> Result<Module, Error> {
        let module = Module::new(Layer::Linear {
            in_features,
            out_features,
        });
        let empty = |shape: &[usize]| -> Result<Parameter, Error> {
            let shape: Vec<i64> = shape.iter().map(|&s| s as i64).collect();
            Parameter::new(&Tensor::empty(session, &shape, dtype, device)?, true)
        };
        let weight = empty(&[out_features, in_features])?;
        let bias = if bias {
            Some(empty(&[out_features])?)
        } else {
            None
        };
        init::default_weight_and_bias(
            &weight.tensor(),
            bias.as_ref().map(Parameter::tensor).as_ref(),
        )?;
        module.register_parameter("weight", Some(weight))?;
        module.register_parameter("bias", bias)?;
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

    /// `nn.Dropout(p)`.
    pub fn dropout(p: f64) -> Result<Module, Error> {
        functional::check_dropout_probability(p)?;
        Ok(Module::new(Layer::Dropout { p }))
    }
}
