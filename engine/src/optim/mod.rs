//! `torch.optim`: optimizers over parameter groups, with PyTorch's defaults, checks, repr,
//! `state_dict` / `load_state_dict` and update rules. State lives where it was created: moving
//! the model afterwards leaves it behind, and the next `step()` fails on the device mismatch, as
//! in PyTorch; `load_state_dict` casts state to each parameter's device and dtype.

mod adam;
mod sgd;

use std::cell::RefCell;

use crate::error::Error;
use crate::nn::Parameter;
use crate::repr::python_float;
use crate::tensor::Tensor;
use crate::transfer::{Target, To};

/// A hyperparameter's value, as Python holds it in a param group.
#[derive(Debug, Clone, PartialEq)]
pub enum Hyper {
    Float(f64),
    Int(i64),
    Bool(bool),
    None,
    Pair(f64, f64),
}

impl Hyper {
    /// Python's `str()` of the value.
    pub fn text(&self) -> String {
        match self {
            Hyper::Float(x) => python_float(*x),
            Hyper::Int(i) => i.to_string(),
            Hyper::Bool(true) => "True".into(),
            Hyper::Bool(false) => "False".into(),
            Hyper::None => "None".into(),
            Hyper::Pair(a, b) => format!("({}, {})", python_float(*a), python_float(*b)),
        }
    }

    fn number(&self) -> f64 {
        match self {
            Hyper::Float(x) => *x,
            Hyper::Int(i) => *i as f64,
            Hyper::Bool(b) => f64::from(u8::from(*b)),
            Hyper::None | Hyper::Pair(..) => 0.0,
        }
    }
}

/// Which update rule an optimizer runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Algorithm {
    Sgd,
    Adam,
    /// Adam with decoupled weight decay, under its own class name.
    AdamW,
}

impl Algorithm {
    pub fn class_name(self) -> &'static str {
        match self {
            Algorithm::Sgd => "SGD",
            Algorithm::Adam => "Adam",
            Algorithm::AdamW => "AdamW",
        }
    }

    /// The constructor's defaults, in PyTorch 2.15's key order.
    fn defaults(self) -> Vec<(String, Hyper)> {
        let entries: Vec<(&str, Hyper)> = match self {
            Algorithm::Sgd => vec![
                ("lr", Hyper::Float(0.001)),
                ("momentum", Hyper::Int(0)),
                ("dampening", Hyper::Int(0)),
                ("weight_decay", Hyper::Int(0)),
                ("nesterov", Hyper::Bool(false)),
                ("maximize", Hyper::Bool(false)),
                ("foreach", Hyper::None),
                ("differentiable", Hyper::Bool(false)),
                ("fused", Hyper::None),
            ],
            Algorithm::Adam | Algorithm::AdamW => {
                let decoupled = self == Algorithm::AdamW;
                vec![
                    ("lr", Hyper::Float(0.001)),
                    ("betas", Hyper::Pair(0.9, 0.999)),
                    ("eps", Hyper::Float(1e-8)),
                    (
                        "weight_decay",
                        if decoupled {
                            Hyper::Float(0.01)
                        } else {
                            Hyper::Int(0)
                        },
                    ),
                    ("amsgrad", Hyper::Bool(false)),
                    ("maximize", Hyper::Bool(false)),
                    ("foreach", Hyper::None),
                    ("capturable", Hyper::Bool(false)),
                    ("differentiable", Hyper::Bool(false)),
                    ("fused", Hyper::None),
                    ("decoupled_weight_decay", Hyper::Bool(decoupled)),
                ]
            }
        };
        entries
            .into_iter()
            .map(|(k, v)| (k.to_owned(), v))
            .collect()
    }

    /// The constructor's value checks, with PyTorch's messages.
    fn check(self, options: &Options) -> Result<(), Error> {
        let invalid = |what: &'static str, value: &Hyper| Error::InvalidHyperparameter {
            what,
            value: value.text(),
        };
        let lr = options.get("lr");
        if lr.number() < 0.0 {
            return Err(invalid("learning rate", &lr));
        }
        match self {
            Algorithm::Sgd => {
                let momentum = options.get("momentum");
                if momentum.number() < 0.0 {
                    return Err(invalid("momentum value", &momentum));
                }
                let decay = options.get("weight_decay");
                if decay.number() < 0.0 {
                    return Err(invalid("weight_decay value", &decay));
                }
                if options.flag("nesterov")
                    && (momentum.number() <= 0.0 || options.float("dampening") != 0.0)
                {
                    return Err(Error::NesterovNeedsMomentum);
                }
            }
            Algorithm::Adam | Algorithm::AdamW => {
                let eps = options.get("eps");
                if eps.number() < 0.0 {
                    return Err(invalid("epsilon value", &eps));
                }
                let (beta1, beta2) = options.betas();
                if !(0.0..1.0).contains(&beta1) {
                    return Err(invalid("beta parameter at index 0", &Hyper::Float(beta1)));
                }
                if !(0.0..1.0).contains(&beta2) {
                    return Err(invalid("beta parameter at index 1", &Hyper::Float(beta2)));
                }
                let decay = options.get("weight_decay");
                if decay.number() < 0.0 {
                    return Err(invalid("weight_decay value", &decay));
                }
            }
        }
        Ok(())
    }
}

/// A param group's settings (everything but `params`), in insertion order.
#[derive(Debug, Clone, PartialEq)]
pub struct Options(Vec<(String, Hyper)>);

impl Options {
    /// Settings in the order given (a loaded `state_dict`'s).
    pub fn from_entries(entries: Vec<(String, Hyper)>) -> Options {
        Options(entries)
    }

    pub fn get(&self, name: &str) -> Hyper {
        self.0
            .iter()
            .find(|(k, _)| k == name)
            .map_or(Hyper::None, |(_, v)| v.clone())
    }

    pub fn set(&mut self, name: &str, value: Hyper) {
        match self.0.iter_mut().find(|(k, _)| k == name) {
            Some(entry) => entry.1 = value,
            None => self.0.push((name.to_owned(), value)),
        }
    }

    pub fn entries(&self) -> &[(String, Hyper)] {
        &self.0
    }

    fn float(&self, name: &str) -> f64 {
        self.get(name).number()
    }

    fn flag(&self, name: &str) -> bool {
        self.get(name) == Hyper::Bool(true)
    }

    fn betas(&self) -> (f64, f64) {
        match self.get("betas") {
            Hyper::Pair(a, b) => (a, b),
            _ => (0.9, 0.999),
        }
    }
}

/// One entry of `param_groups`.
#[derive(Debug, Clone)]
pub struct ParamGroup {
    pub params: Vec<Parameter>,
    pub options: Options,
}

/// A parameter's state (`optimizer.state[p]`): named tensors in insertion order.
pub type ParamState = Vec<(String, Tensor)>;

/// `optimizer.state_dict()`: state by parameter index, and each group's options with the indices of
/// its parameters (numbered across groups in order).
#[derive(Debug, Clone)]
pub struct StateDict {
    pub state: Vec<(usize, ParamState)>,
    pub param_groups: Vec<(Options, Vec<usize>)>,
}

/// The parameters of one group as given to a constructor, with that group's own settings.
pub type GroupSpec = (Vec<Parameter>, Vec<(String, Hyper)>);

pub struct Optimizer {
    algorithm: Algorithm,
    groups: RefCell<Vec<ParamGroup>>,
    state: RefCell<Vec<(Parameter, ParamState)>>,
}

impl Optimizer {
    /// `torch.optim.SGD(params, **options)` and its siblings. `groups` are the parameter groups
    /// (one for a plain parameter list), each with its own overrides; `options` override the
    /// defaults for every group.
    pub fn new(
        algorithm: Algorithm,
        groups: Vec<GroupSpec>,
        options: &[(String, Hyper)],
    ) -> Result<Optimizer, Error> {
        if groups.iter().all(|(params, _)| params.is_empty()) {
            return Err(Error::EmptyParameterList);
        }
        let mut defaults = Options(algorithm.defaults());
        for (name, value) in options {
            defaults.set(name, value.clone());
        }
        algorithm.check(&defaults)?;
        let mut built = Vec::new();
        for (params, overrides) in groups {
            let mut group_options = defaults.clone();
            for (name, value) in overrides {
                group_options.set(&name, value);
            }
            algorithm.check(&group_options)?;
            built.push(ParamGroup {
                params,
                options: group_options,
            });
        }
        Ok(Optimizer {
            algorithm,
            groups: RefCell::new(built),
            state: RefCell::default(),
        })
    }

    pub fn algorithm(&self) -> Algorithm {
        self.algorithm
    }

    pub fn param_groups(&self) -> Vec<ParamGroup> {
        self.groups.borrow().clone()
    }

    /// `optimizer.param_groups[group][name] = value` (a learning-rate change, say).
    pub fn set_option(&self, group: usize, name: &str, value: Hyper) {
        if let Some(g) = self.groups.borrow_mut().get_mut(group) {
            g.options.set(name, value);
        }
    }

    /// `optimizer.state[p]`.
    pub fn state_of(&self, param: &Parameter) -> Option<ParamState> {
        self.state
            .borrow()
            .iter()
            .find(|(p, _)| p.is(param))
            .map(|(_, s)| s.clone())
    }

    /// `optimizer.zero_grad(set_to_none=True)`.
    pub fn zero_grad(&self, set_to_none: bool) -> Result<(), Error> {
        let params: Vec<Parameter> = self
            .groups
            .borrow()
            .iter()
            .flat_map(|g| g.params.clone())
            .collect();
        crate::nn::zero_grads(&params, set_to_none)
    }

    /// `optimizer.step()`: every parameter that has a gradient is updated in place, under no_grad.
    pub fn step(&self) -> Result<(), Error> {
        let groups = self.param_groups();
        for group in &groups {
            for param in &group.params {
                let tensor = param.tensor();
                let Some(grad) = tensor.raw_grad() else {
                    continue;
                };
                let grad = if group.options.flag("maximize") {
                    tensor.session().no_grad(|| grad.neg())?
                } else {
                    grad
                };
                let mut state = self.state_of(param).unwrap_or_default();
                tensor.session().no_grad(|| match self.algorithm {
                    Algorithm::Sgd => sgd::update(&tensor, &grad, &group.options, &mut state),
                    Algorithm::Adam | Algorithm::AdamW => {
                        adam::update(&tensor, &grad, &group.options, &mut state)
                    }
                })?;
                if !state.is_empty() {
                    self.set_state(param, state);
                }
            }
        }
        Ok(())
    }

    fn set_state(&self, param: &Parameter, value: ParamState) {
        let mut state = self.state.borrow_mut();
        match state.iter_mut().find(|(p, _)| p.is(param)) {
            Some(entry) => entry.1 = value,
            None => state.push((param.clone(), value)),
        }
    }

    /// `optimizer.state_dict()`: the state tensors themselves (not copies), as PyTorch returns.
    pub fn state_dict(&self) -> StateDict {
        let groups = self.groups.borrow();
        let mut index = 0;
        let mut param_groups = Vec::new();
        let mut state = Vec::new();
        for group in groups.iter() {
            let mut indices = Vec::new();
            for param in &group.params {
                if let Some(s) = self.state_of(param) {
                    state.push((index, s));
                }
                indices.push(index);
                index += 1;
            }
            param_groups.push((group.options.clone(), indices));
        }
        StateDict {
            state,
            param_groups,
        }
    }

    /// `optimizer.load_state_dict(state_dict)`: group options replaced, state copied onto each
    /// parameter's device and dtype (`step` counters stay as saved).
    pub fn load_state_dict(&self, saved: &StateDict) -> Result<(), Error> {
        let mut groups = self.groups.borrow_mut();
        if groups.len() != saved.param_groups.len() {
            return Err(Error::OptimizerGroupCount);
        }
        if groups
            .iter()
            .zip(&saved.param_groups)
            .any(|(g, (_, indices))| g.params.len() != indices.len())
        {
            return Err(Error::OptimizerGroupSizes);
        }
        let mut new_state = Vec::new();
        for (group, (options, indices)) in groups.iter_mut().zip(&saved.param_groups) {
            for (param, index) in group.params.iter().zip(indices) {
                let Some((_, entries)) = saved.state.iter().find(|(i, _)| i == index) else {
                    continue;
                };
                let target = param.tensor();
                let mut cast = Vec::new();
                for (name, value) in entries {
                    let value = if name == "step" {
                        value.clone()
                    } else {
                        let dtype = value.dtype().is_floating_point().then_some(target.dtype());
                        value.to(To {
                            device: Some(Target::Device(target.device())),
                            dtype,
                            non_blocking: false,
                            copy: false,
                        })?
                    };
                    cast.push((name.clone(), value));
                }
                new_state.push((param.clone(), cast));
            }
            group.options = options.clone();
        }
        *self.state.borrow_mut() = new_state;
        Ok(())
    }

    /// `repr(optimizer)`: each group's settings sorted by name.
    pub fn repr(&self) -> String {
        let mut text = format!("{} (", self.algorithm.class_name());
        for (i, group) in self.groups.borrow().iter().enumerate() {
            text.push_str(&format!("\nParameter Group {i}\n"));
            let mut entries = group.options.entries().to_vec();
            entries.sort_by(|a, b| a.0.cmp(&b.0));
            for (name, value) in entries {
                text.push_str(&format!("    {name}: {}\n", value.text()));
            }
        }
        text.push(')');
        text
    }
}

/// The named state tensor `name`, if the parameter has one yet.
fn state_tensor(state: &ParamState, name: &str) -> Option<Tensor> {
    state
        .iter()
        .find(|(k, _)| k == name)
        .map(|(_, t)| t.clone())
}

fn set_state_tensor(state: &mut ParamState, name: &str, tensor: Tensor) {
    match state.iter_mut().find(|(k, _)| k == name) {
        Some(entry) => entry.1 = tensor,
        None => state.push((name.to_owned(), tensor)),
    }
}
