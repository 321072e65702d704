//! `Tensor`: a handle on storage seen through a layout, with its autograd state.
//!
//! Cloning a `Tensor` clones the handle (Python's `b = a`): both are the same tensor, as
//! [`Tensor::is`] tells. Views (and `detach()`) share storage and the version counter but are new
//! tensors; `.data` shares storage with a counter of its own, which is why autograd cannot see
//! in-place changes made through it.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use crate::autograd::{self, AutogradMeta, Backward, GradFn};
use crate::backend::gpu::Distribution;
use crate::device::{Device, DeviceType};
use crate::dtype::DType;
use crate::element::Scalar;
use crate::error::Error;
use crate::layout::{Layout, Reshape};
use crate::repr::{add_suffixes, format_values};
use crate::session::Session;
use crate::storage::{CpuStorage, Storage, StorageData};

#[derive(Debug, Clone)]
pub struct Tensor(Rc<TensorImpl>);

#[derive(Debug)]
pub(crate) struct TensorImpl {
    id: u64,
    storage: Rc<Storage>,
    layout: Layout,
    autograd: RefCell<AutogradMeta>,
    /// `_version`: in-place changes, counted for everything that shares this counter.
    version: Rc<Cell<u64>>,
    /// The `version` the autograd state was set at (`attr_version`): a view whose data changed since
    /// (through its base or another view) rebuilds its history before it is next read.
    history_version: Cell<u64>,
    /// Made by a view op (or `detach()`) from another tensor's storage.
    is_view: bool,
    /// The tensor a differentiable view (a view op's result) was taken from, first in its chain:
    /// `_base`. In-place changes through the view rewrite the base's history (`CopySlices`).
    base: Option<Tensor>,
}

impl Tensor {
    pub(crate) fn from_impl(inner: Rc<TensorImpl>) -> Tensor {
        Tensor(inner)
    }

    pub(crate) fn downgrade(&self) -> std::rc::Weak<TensorImpl> {
        Rc::downgrade(&self.0)
    }

    /// A new tensor over `storage`.
    pub(crate) fn from_storage(
        storage: Rc<Storage>,
        layout: Layout,
        autograd: AutogradMeta,
    ) -> Tensor {
        Tensor::from_parts(storage, layout, autograd, Rc::default(), false, None)
    }

    fn from_parts(
        storage: Rc<Storage>,
        layout: Layout,
        autograd: AutogradMeta,
        version: Rc<Cell<u64>>,
        is_view: bool,
        base: Option<Tensor>,
    ) -> Tensor {
        let id = storage.session().next_id();
        Tensor(Rc::new(TensorImpl {
            id,
            storage,
            layout,
            autograd: RefCell::new(autograd),
            history_version: Cell::new(version.get()),
            version,
            is_view,
            base,
        }))
    }

    /// A tensor holding `data` (row-major, already of the right dtype), which `op` computed on the
    /// host, on a resolved `device`.
    pub(crate) fn from_cpu_data(
        session: &Session,
        data: CpuStorage,
        shape: &[usize],
        device: Device,
        op: &str,
    ) -> Result<Tensor, Error> {
        if shape.iter().product::<usize>() != data.len() {
            let spec = shape.iter().map(|&d| d as i64).collect();
            return Err(Error::ShapeInvalidForSize {
                shape: spec,
                numel: data.len(),
            });
        }
        Tensor::generated(session, shape, data.dtype(), device, op, |_| data)
    }

    /// [`Tensor::from_scalars`] for an op that computed `values` on the host.
    pub(crate) fn from_values(
        session: &Session,
        values: &[Scalar],
        shape: &[usize],
        dtype: DType,
        device: Device,
        op: &str,
    ) -> Result<Tensor, Error> {
        let data = CpuStorage::from_scalars(dtype, values);
        Tensor::from_cpu_data(session, data, shape, session.resolve(device)?, op)
    }

    /// `torch.tensor(data, dtype=…, device=…, requires_grad=…)` from flattened Python numbers. Without
    /// a dtype, it is inferred as PyTorch does: bool if every value is, the default dtype if any is a float,
    /// int64 otherwise.
    pub fn from_scalars(
        session: &Session,
        values: &[Scalar],
        shape: &[usize],
        dtype: Option<DType>,
        device: Device,
        requires_grad: bool,
    ) -> Result<Tensor, Error> {
        let dtype = dtype.unwrap_or_else(|| infer_dtype(values, session.default_dtype()));
        let device = session.resolve(device)?;
        if requires_grad && !dtype.is_floating_point() {
            return Err(Error::RequiresGradNeedsFloat { at_creation: true });
        }
        let tensor = Tensor::from_cpu_data(
            session,
            CpuStorage::from_scalars(dtype, values),
            shape,
            device,
            "tensor",
        )?;
        tensor.meta_mut().requires_grad = requires_grad;
        Ok(tensor)
    }

    /// `torch.full(shape, value, dtype=…, device=…)`; `zeros`/`ones` are fills of 0 and 1.
    pub fn full(
        session: &Session,
        shape: &[usize],
        value: Scalar,
        dtype: DType,
        device: Device,
    ) -> Result<Tensor, Error> {
        if let Some(filled) = crate::ops::gpu::fill(session, shape, value, dtype, device) {
            return filled;
        }
        Tensor::generated(session, shape, dtype, device, "fill", |n| {
            CpuStorage::filled(dtype, n, value)
        })
    }

    /// A tensor of `shape` whose elements `make` produces on the host once the device's allocator
    /// has admitted them (a huge request fails as out-of-memory before any element exists). The
    /// trace records `op` as host work: the CPU's own, or the CPU standing in for a GPU device.
    pub(crate) fn generated(
        session: &Session,
        shape: &[usize],
        dtype: DType,
        device: Device,
        op: &str,
        make: impl FnOnce(usize) -> CpuStorage,
    ) -> Result<Tensor, Error> {
        let device = session.resolve(device)?;
        check_device_dtype(device, dtype)?;
        let numel = crate::layout::checked_storage_size(shape, dtype.size())? / dtype.size();
        let storage = Storage::new(session, device, dtype, numel, || Some(make(numel)), false)?;
        if device.kind != DeviceType::Meta {
            crate::ops::record_kernel(session, device, op, dtype);
        }
        Ok(Tensor::from_storage(
            Rc::new(storage),
            Layout::contiguous(shape),
            AutogradMeta::default(),
        ))
    }

    /// `torch.rand(*shape)`: uniform in [0, 1) from the device's generator.
    pub fn rand(
        session: &Session,
        shape: &[usize],
        dtype: DType,
        device: Device,
    ) -> Result<Tensor, Error> {
        Tensor::uniform(session, shape, dtype, device, 0.0, 1.0)
    }

    /// `torch.empty(*shape).uniform_(from, to)`.
    pub fn uniform(
        session: &Session,
        shape: &[usize],
        dtype: DType,
        device: Device,
        from: f64,
        to: f64,
    ) -> Result<Tensor, Error> {
        let on_gpu = Distribution::Uniform {
            from: from as f32,
            to: to as f32,
        };
        Tensor::random_floats(
            session,
            shape,
            dtype,
            device,
            ("check_uniform_bounds", on_gpu),
            |g, n| g.uniform(dtype, n, from, to),
        )
    }

    /// `torch.randn(*shape)`: normal values from the device's generator.
    pub fn normal(
        session: &Session,
        shape: &[usize],
        dtype: DType,
        device: Device,
        mean: f64,
        std: f64,
    ) -> Result<Tensor, Error> {
        Tensor::normal_drawn(session, shape, dtype, device, true, mean, std)
    }

    /// Normal values as PyTorch draws them for a tensor that is `contiguous` or not (a
    /// non-contiguous `normal_` takes the scalar path whatever its size).
    pub(crate) fn normal_drawn(
        session: &Session,
        shape: &[usize],
        dtype: DType,
        device: Device,
        contiguous: bool,
        mean: f64,
        std: f64,
    ) -> Result<Tensor, Error> {
        let on_gpu = Distribution::Normal {
            mean: mean as f32,
            std: std as f32,
        };
        Tensor::random_floats(
            session,
            shape,
            dtype,
            device,
            ("normal_kernel_cpu", on_gpu),
            |g, n| g.normal(dtype, n, contiguous, mean, std),
        )
    }

    /// Floating-point random values drawn from the target device's generator: `on_gpu` by a GPU
    /// kernel, else by `draw` on the host; `kernel` names PyTorch's kernel in the error for other
    /// dtypes.
    fn random_floats(
        session: &Session,
        shape: &[usize],
        dtype: DType,
        device: Device,
        (kernel, on_gpu): (&str, Distribution),
        draw: impl FnOnce(&mut crate::random::Generator, usize) -> Option<CpuStorage>,
    ) -> Result<Tensor, Error> {
        if !dtype.is_floating_point() {
            return Err(Error::KernelNotForDtype {
                kernel: kernel.into(),
                dtype,
            });
        }
        if let Some(drawn) = crate::ops::gpu::random(session, shape, dtype, device, on_gpu) {
            return drawn;
        }
        let target = session.resolve(device)?;
        Tensor::generated(session, shape, dtype, device, kernel, |n| {
            // `draw` gives values for every floating dtype, which is all that reaches here.
            session
                .with_generator(target, |g| draw(g, n))
                .unwrap_or_else(|| CpuStorage::filled(dtype, n, Scalar::Int(0)))
        })
    }

    /// `torch.randint(low, high, shape)`.
    pub fn randint(
        session: &Session,
        low: i64,
        high: i64,
        shape: &[usize],
        dtype: DType,
        device: Device,
    ) -> Result<Tensor, Error> {
        if high <= low {
            return Err(Error::RandintEmptyRange { low, high });
        }
        let on_gpu = Distribution::Randint { low, high };
        if let Some(drawn) = crate::ops::gpu::random(session, shape, dtype, device, on_gpu) {
            return drawn;
        }
        let target = session.resolve(device)?;
        Tensor::generated(session, shape, dtype, device, "randint", |n| {
            session.with_generator(target, |g| g.randint(dtype, n, low, high))
        })
    }

    /// `torch.randperm(n)`.
    pub fn randperm(
        session: &Session,
        n: usize,
        dtype: DType,
        device: Device,
    ) -> Result<Tensor, Error> {
        let target = session.resolve(device)?;
        Tensor::generated(session, &[n], dtype, device, "randperm", |n| {
            let values: Vec<Scalar> = session
                .with_generator(target, |g| g.randperm(n))
                .into_iter()
                .map(Scalar::Int)
                .collect();
            CpuStorage::from_scalars(dtype, &values)
        })
    }

    // ---- identity and metadata ----

    /// Python's `a is b`.
    pub fn is(&self, other: &Tensor) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }

    /// A number naming this tensor in traces and graphs.
    pub fn id(&self) -> u64 {
        self.0.id
    }

    pub fn session(&self) -> &Session {
        self.0.storage.session()
    }

    pub(crate) fn storage(&self) -> &Rc<Storage> {
        &self.0.storage
    }

    pub fn layout(&self) -> &Layout {
        &self.0.layout
    }

    pub fn shape(&self) -> &[usize] {
        &self.0.layout.shape
    }

    pub fn stride(&self) -> &[usize] {
        &self.0.layout.strides
    }

    pub fn storage_offset(&self) -> usize {
        self.0.layout.offset
    }

    pub fn dim(&self) -> usize {
        self.0.layout.dim()
    }

    pub fn numel(&self) -> usize {
        self.0.layout.numel()
    }

    pub fn dtype(&self) -> DType {
        self.0.storage.dtype()
    }

    pub fn device(&self) -> Device {
        self.0.storage.device()
    }

    pub fn is_contiguous(&self) -> bool {
        self.0.layout.is_contiguous()
    }

    pub fn is_pinned(&self) -> bool {
        self.0.storage.is_pinned()
    }

    pub fn element_size(&self) -> usize {
        self.dtype().size()
    }

    /// `data_ptr()`: the simulated address of the first element (views of one storage differ by
    /// their offset; a cached block reused on a GPU gives the same address again).
    pub fn data_ptr(&self) -> u64 {
        self.0.storage.address() + (self.0.layout.offset * self.element_size()) as u64
    }

    /// `tensor._version`: in-place changes made through this tensor or anything sharing its counter.
    pub fn version(&self) -> u64 {
        self.0.version.get()
    }

    pub(crate) fn bump_version(&self) {
        self.0.version.set(self.0.version.get() + 1);
    }

    pub fn is_view(&self) -> bool {
        self.0.is_view
    }

    /// `_base`: the tensor a differentiable view was taken from.
    pub fn view_base(&self) -> Option<&Tensor> {
        self.0.base.as_ref()
    }

    /// `detach()`: the same data and version counter, cut from the graph.
    pub fn detach(&self) -> Tensor {
        Tensor::from_parts(
            self.0.storage.clone(),
            self.layout().clone(),
            AutogradMeta::default(),
            self.0.version.clone(),
            true,
            None,
        )
    }

    /// `detach_()`: this tensor cut from its graph in place, a leaf that does not require grad.
    /// A view of another tensor cannot be (PyTorch's error says to use `detach()`).
    pub fn detach_(&self) -> Result<&Tensor, Error> {
        if self.view_base().is_some() {
            return Err(Error::DetachViewInPlace);
        }
        if self.requires_grad() {
            crate::autograd::graph_break(self, crate::trace::BreakCause::Detach);
        }
        let mut meta = self.meta_mut();
        meta.grad_fn = None;
        meta.requires_grad = false;
        Ok(self)
    }

    /// The same storage and version counter with another layout and no history (a detached
    /// view; see [`Tensor::strided_view`]).
    pub(crate) fn relaid(&self, layout: Layout) -> Tensor {
        Tensor::from_parts(
            self.0.storage.clone(),
            layout,
            AutogradMeta::default(),
            self.0.version.clone(),
            true,
            None,
        )
    }

    /// `.data`: the same data with a version counter of its own (in-place changes through it are
    /// invisible to autograd's checks).
    pub fn data(&self) -> Tensor {
        self.alias(Rc::default())
    }

    /// The same data and version counter with no autograd state: how a backward function keeps
    /// its op's result without the result holding its own node.
    pub(crate) fn alias_without_history(&self) -> Tensor {
        self.alias(self.0.version.clone())
    }

    /// The same data and layout, no autograd state, counting versions in `version`.
    fn alias(&self, version: Rc<Cell<u64>>) -> Tensor {
        Tensor::from_parts(
            self.0.storage.clone(),
            self.layout().clone(),
            AutogradMeta::default(),
            version,
            false,
            None,
        )
    }

    /// `x.type()`: `torch.FloatTensor`, `torch.cuda.LongTensor`, …
    pub fn type_name(&self) -> String {
        let kind = self.dtype().scalar_type_name();
        match self.device().kind {
            DeviceType::Cpu => format!("torch.{kind}Tensor"),
            other => format!("torch.{}.{kind}Tensor", other.name()),
        }
    }

    // ---- autograd state ----

    pub fn requires_grad(&self) -> bool {
        self.autograd().requires_grad()
    }

    /// `requires_grad_()`: only leaves may change it, and only floating-point tensors may require grad.
    pub fn set_requires_grad(&self, requires_grad: bool) -> Result<(), Error> {
        let mut meta = self.meta_mut();
        if meta.grad_fn.is_some() && !requires_grad {
            return Err(Error::RequiresGradOnNonLeaf);
        }
        if requires_grad && !self.dtype().is_floating_point() {
            return Err(Error::RequiresGradNeedsFloat { at_creation: false });
        }
        meta.requires_grad = requires_grad;
        Ok(())
    }

    pub fn grad_fn(&self) -> Option<GradFn> {
        self.autograd().grad_fn.clone()
    }

    pub fn is_leaf(&self) -> bool {
        self.autograd().grad_fn.is_none()
    }

    /// The autograd state, every read going through here so that a stale view is rebuilt first.
    pub(crate) fn autograd(&self) -> std::cell::Ref<'_, AutogradMeta> {
        self.refresh_view_history();
        self.0.autograd.borrow()
    }

    pub(crate) fn meta_mut(&self) -> std::cell::RefMut<'_, AutogradMeta> {
        self.refresh_view_history();
        self.0.autograd.borrow_mut()
    }

    /// PyTorch's lazy `grad_fn` regeneration: once a view's data changed through its base or another
    /// view, its history is `AsStridedBackward0` over the base's current history (if either had
    /// any), so gradients reach whatever wrote the values last.
    fn refresh_view_history(&self) {
        let Some(base) = &self.0.base else { return };
        let version = self.0.version.get();
        if self.0.history_version.replace(version) == version {
            return;
        }
        let had_history = self.0.autograd.borrow().grad_fn.is_some();
        if had_history || base.requires_grad() {
            self.replace_autograd(crate::ops::inplace::view_history(base, self));
        }
    }

    // ---- views ----

    /// A view of this tensor's storage, recording the view op's backward node.
    pub(crate) fn view_of(&self, layout: Layout, backward: impl FnOnce() -> Backward) -> Tensor {
        let meta = autograd::record(&[self], backward);
        let base = self.0.base.clone().unwrap_or_else(|| self.clone());
        Tensor::from_parts(
            self.0.storage.clone(),
            layout,
            meta,
            self.0.version.clone(),
            true,
            Some(base),
        )
    }

    /// The backward of a view that only changes the shape: the gradient reshaped back.
    pub(crate) fn reshape_back(name: &'static str, shape: &[usize]) -> impl FnOnce() -> Backward {
        let shape: Vec<i64> = shape.iter().map(|&s| s as i64).collect();
        move || Backward::new(name, move |grad| Ok(vec![Some(grad.reshape(&shape)?)]))
    }

    /// The backward of a view that picks some elements (`select`, slicing): the gradient placed
    /// where they were, zeros elsewhere.
    pub(crate) fn embed_back(
        name: &'static str,
        shape: &[usize],
        pick: impl Fn(&Layout) -> Result<Layout, Error> + 'static,
    ) -> impl FnOnce() -> Backward {
        let shape = shape.to_vec();
        move || {
            Backward::new(name, move |grad| {
                let zeros = Tensor::full(
                    grad.session(),
                    &shape,
                    Scalar::Int(0),
                    grad.dtype(),
                    grad.device(),
                )?;
                zeros.write_view(&pick(zeros.layout())?, grad)?;
                Ok(vec![Some(zeros)])
            })
        }
    }

    pub fn view(&self, shape: &[i64]) -> Result<Tensor, Error> {
        Ok(self.view_of(
            self.layout().view(shape)?,
            Tensor::reshape_back("ViewBackward0", self.shape()),
        ))
    }

    /// `reshape()`: a view when the strides allow one, else a copy (`CloneBackward0` under
    /// `UnsafeViewBackward0`, as PyTorch records it).
    pub fn reshape(&self, shape: &[i64]) -> Result<Tensor, Error> {
        match self.layout().reshape(shape)? {
            Reshape::View(layout) => {
                Ok(self.view_of(layout, Tensor::reshape_back("ViewBackward0", self.shape())))
            }
            Reshape::Copy(new_shape) => {
                let copy = self.copy_contiguous()?;
                Ok(copy.view_of(
                    Layout::contiguous(&new_shape),
                    Tensor::reshape_back("UnsafeViewBackward0", self.shape()),
                ))
            }
        }
    }

    pub fn transpose(&self, dim0: i64, dim1: i64) -> Result<Tensor, Error> {
        let layout = self.layout().transpose(dim0, dim1)?;
        Ok(self.view_of(layout, move || {
            Backward::new("TransposeBackward0", move |grad| {
                Ok(vec![Some(grad.transpose(dim0, dim1)?)])
            })
        }))
    }

    pub fn t(&self) -> Result<Tensor, Error> {
        Ok(self.view_of(self.layout().t()?, || {
            Backward::new("TBackward0", |grad| Ok(vec![Some(grad.t()?)]))
        }))
    }

    pub fn permute(&self, dims: &[i64]) -> Result<Tensor, Error> {
        let layout = self.layout().permute(dims)?;
        let n = self.dim();
        let mut inverse = vec![0i64; n];
        for (i, &d) in dims.iter().enumerate() {
            inverse[crate::layout::wrap_dim(d, n)?] = i as i64;
        }
        Ok(self.view_of(layout, move || {
            Backward::new("PermuteBackward0", move |grad| {
                Ok(vec![Some(grad.permute(&inverse)?)])
            })
        }))
    }

    pub fn unsqueeze(&self, dim: i64) -> Result<Tensor, Error> {
        let layout = self.layout().unsqueeze(dim)?;
        let shape = self.shape().to_vec();
        Ok(self.view_of(layout, move || {
            Backward::new("UnsqueezeBackward0", move |grad| {
                let back: Vec<i64> = shape.iter().map(|&s| s as i64).collect();
                Ok(vec![Some(grad.reshape(&back)?)])
            })
        }))
    }

    /// `squeeze()` records `SqueezeBackward0`; `squeeze(dim)` records `SqueezeBackward1`.
    pub fn squeeze(&self, dim: Option<i64>) -> Result<Tensor, Error> {
        let name = if dim.is_some() {
            "SqueezeBackward1"
        } else {
            "SqueezeBackward0"
        };
        Ok(self.view_of(
            self.layout().squeeze(dim)?,
            Tensor::reshape_back(name, self.shape()),
        ))
    }

    /// `squeeze(dim)` recorded under another node name (`matmul` records `SqueezeBackward4`).
    pub(crate) fn squeeze_named(&self, dim: i64, name: &'static str) -> Result<Tensor, Error> {
        Ok(self.view_of(
            self.layout().squeeze(Some(dim))?,
            Tensor::reshape_back(name, self.shape()),
        ))
    }

    /// ATen's `_unsafe_view`: a contiguous tensor seen with another shape, recorded as
    /// `UnsafeViewBackward0`.
    pub(crate) fn unsafe_view(&self, shape: &[usize]) -> Result<Tensor, Error> {
        let source = self.contiguous()?;
        let spec: Vec<i64> = shape.iter().map(|&s| s as i64).collect();
        let layout = source.layout().view(&spec)?;
        Ok(source.view_of(
            layout,
            Tensor::reshape_back("UnsafeViewBackward0", source.shape()),
        ))
    }

    pub fn expand(&self, sizes: &[i64]) -> Result<Tensor, Error> {
        let layout = self.layout().expand(sizes, &self.type_name())?;
        let shape = self.shape().to_vec();
        Ok(self.view_of(layout, move || {
            Backward::new("ExpandBackward0", move |grad| {
                Ok(vec![Some(grad.sum_to_shape(&shape)?)])
            })
        }))
    }

    pub fn select(&self, dim: i64, index: i64) -> Result<Tensor, Error> {
        let layout = self.layout().select(dim, index)?;
        Ok(self.view_of(
            layout,
            Tensor::embed_back("SelectBackward0", self.shape(), move |l| {
                l.select(dim, index)
            }),
        ))
    }

    pub fn slice(
        &self,
        dim: i64,
        start: Option<i64>,
        stop: Option<i64>,
        step: i64,
    ) -> Result<Tensor, Error> {
        let layout = self.layout().slice(dim, start, stop, step)?;
        Ok(self.view_of(
            layout,
            Tensor::embed_back("SliceBackward0", self.shape(), move |l| {
                l.slice(dim, start, stop, step)
            }),
        ))
    }

    /// `contiguous()`: the tensor itself when already contiguous, else a row-major copy.
    pub fn contiguous(&self) -> Result<Tensor, Error> {
        if self.is_contiguous() {
            return Ok(self.clone());
        }
        self.copy_contiguous()
    }

    /// `clone()`: a copy with its own storage, recorded as `CloneBackward0`.
    pub fn clone_tensor(&self) -> Result<Tensor, Error> {
        self.copy_contiguous()
    }

    /// A row-major copy, recorded as `CloneBackward0`.
    fn copy_contiguous(&self) -> Result<Tensor, Error> {
        self.session()
            .check_fits(self.device(), self.shape(), self.element_size())?;
        let copy = match crate::ops::gpu::contiguous(self) {
            Some(copy) => copy?,
            None => {
                let data = self.read(|cpu| cpu.gather(self.layout(), self.dtype()))?;
                Tensor::from_cpu_data(self.session(), data, self.shape(), self.device(), "clone")?
            }
        };
        Ok(copy.with_autograd(autograd::record(&[self], || {
            Backward::new("CloneBackward0", |grad| Ok(vec![Some(grad.clone())]))
        })))
    }

    /// Writes `values` (of `layout`'s shape) into this tensor's storage where `layout` places
    /// them: the copy kernel on a GPU (a strided write where the layout is a view), else on the
    /// host.
    pub(crate) fn write_view(&self, layout: &Layout, values: &Tensor) -> Result<(), Error> {
        // A meta tensor holds no values: an in-place op on it is only its checks.
        if self.device().kind == DeviceType::Meta {
            return Ok(());
        }
        if let Some(written) = crate::ops::gpu::write(self.storage(), layout, values) {
            return written;
        }
        let values = values.read(|cpu| cpu.gather(values.layout(), self.dtype()))?;
        let storage = &self.0.storage;
        if storage.gpu().is_some() {
            let mut all = storage.read(CpuStorage::clone)?;
            all.scatter(layout, &values);
            return storage.write(all);
        }
        match &mut *storage.data_mut() {
            StorageData::Cpu(cpu) => {
                cpu.scatter(layout, &values);
                Ok(())
            }
            _ => Err(Error::MetaHasNoData),
        }
    }

    /// Replaces the autograd state in place (an in-place op's new history), keeping `.grad`.
    pub(crate) fn replace_autograd(&self, meta: AutogradMeta) {
        self.0.history_version.set(self.0.version.get());
        let mut current = self.0.autograd.borrow_mut();
        let grad = current.grad.take();
        *current = meta;
        current.grad = grad;
    }

    /// The same tensor with its autograd state replaced (an op's freshly made output).
    pub(crate) fn with_autograd(self, meta: AutogradMeta) -> Tensor {
        self.0.history_version.set(self.0.version.get());
        *self.0.autograd.borrow_mut() = meta;
        self
    }

    // ---- gradients ----

    /// `.grad`. On a non-leaf it is always `None`, and PyTorch warns (the session records the
    /// warning for the runtime to show).
    pub fn grad(&self) -> Option<Tensor> {
        let meta = self.autograd();
        if meta.grad_fn.is_some() && !meta.retains_grad {
            self.session().warn(crate::error::NON_LEAF_GRAD_WARNING);
        }
        meta.grad.clone()
    }

    /// `.grad` without the non-leaf warning (the engine's own reads).
    pub(crate) fn raw_grad(&self) -> Option<Tensor> {
        self.autograd().grad.clone()
    }

    /// `t.grad = g`, with PyTorch's checks that `g` could be this tensor's gradient.
    pub fn assign_grad(&self, grad: Option<Tensor>) -> Result<(), Error> {
        if let Some(g) = &grad {
            if g.dtype() != self.dtype() {
                return Err(Error::GradAssignDtype {
                    grad: g.dtype(),
                    tensor: self.dtype(),
                });
            }
            let (to, from) = (g.device(), self.device());
            if to.kind != from.kind {
                return Err(Error::GradAssignDeviceType {
                    grad: to.kind,
                    tensor: from.kind,
                });
            }
            // `get_device()`: -1 for devices without an index.
            let index = |d: crate::Device| d.index.map_or(-1, |i| i as i64);
            if index(to) != index(from) {
                return Err(Error::GradAssignDeviceIndex {
                    grad: index(to),
                    tensor: index(from),
                });
            }
            if g.shape() != self.shape() {
                return Err(Error::GradAssignSize {
                    grad: g.shape().to_vec(),
                    tensor: self.shape().to_vec(),
                });
            }
        }
        self.set_grad(grad);
        Ok(())
    }

    pub(crate) fn set_grad(&self, grad: Option<Tensor>) {
        self.meta_mut().grad = grad;
    }

    /// `retains_grad`: whether this non-leaf keeps its `.grad` (`retain_grad()` was called).
    pub fn retains_grad(&self) -> bool {
        self.autograd().retains_grad
    }

    /// `retain_grad()`: a non-leaf keeps its `.grad` after `backward()` (a no-op on leaves).
    pub fn retain_grad(&self) -> Result<(), Error> {
        if !self.requires_grad() {
            return Err(Error::RetainGradWithoutGrad);
        }
        if let Some(grad_fn) = self.grad_fn() {
            grad_fn.retain_for(self);
            self.meta_mut().retains_grad = true;
        }
        Ok(())
    }

    /// `numpy()`'s checks, as PyTorch makes them: a tensor that requires grad or lives off the
    /// CPU has no array view (the array itself is the lab's numpy's, over this storage).
    pub fn numpy(&self) -> Result<(), Error> {
        if self.requires_grad() {
            return Err(Error::NumpyRequiresGrad);
        }
        if !self.device().is_cpu() {
            return Err(Error::NumpyNotCpu {
                device: self.device(),
            });
        }
        Ok(())
    }

    /// `tensor.backward(gradient=None, retain_graph=False)`.
    pub fn backward(&self, gradient: Option<&Tensor>, retain_graph: bool) -> Result<(), Error> {
        autograd::backward(self, gradient, retain_graph)
    }

    // ---- values ----

    /// Runs `f` on the elements in host memory, or fails for `meta` tensors, which have none.
    pub(crate) fn read<T>(&self, f: impl FnOnce(&CpuStorage) -> T) -> Result<T, Error> {
        self.0.storage.read(f)
    }

    /// Brings a GPU tensor's values back to the host without blocking (the browser's way to
    /// wait); the synchronous reads after it find them. Nothing to do for other tensors.
    pub async fn fetch(&self) -> Result<(), Error> {
        self.0.storage.fetch().await
    }

    /// The elements in row-major order, as Python numbers (`tolist()` flattened).
    /// A sync point (the host waits for the device, and a pending device-side assert surfaces).
    pub fn scalars(&self) -> Result<Vec<Scalar>, Error> {
        self.session()
            .sync(self.device(), "the values were read on the host")?;
        self.kernel_scalars()
    }

    /// The elements as a kernel reads them: no sync point (what GPU work queued behind other work
    /// sees).
    pub(crate) fn kernel_scalars(&self) -> Result<Vec<Scalar>, Error> {
        self.read(|cpu| cpu.scalars(self.layout()))
    }

    /// `item()`: the one element of a one-element tensor.
    pub fn item(&self) -> Result<Scalar, Error> {
        if self.device().kind == DeviceType::Meta {
            return Err(Error::ItemOnMeta);
        }
        if self.numel() != 1 {
            return Err(Error::ItemNotOneElement {
                numel: self.numel(),
            });
        }
        Ok(self.scalars()?[0])
    }

    /// `repr(tensor)`, word for word as PyTorch prints it under the session's print options;
    /// the dtype is named unless it is the default dtype, int64 or bool.
    pub fn repr(&self) -> Result<String, Error> {
        const PREFIX: &str = "tensor(";
        let indent = PREFIX.len();
        let dtype = self.dtype();
        let default = self.session().default_dtype();
        let options = self.session().print_options();
        let mut suffixes = Vec::new();
        if !self.device().is_cpu() {
            suffixes.push(format!("device='{}'", self.device()));
        }
        let body = if self.device().kind == DeviceType::Meta {
            suffixes.push(format!("size={}", python_tuple(self.shape())));
            if dtype != default {
                suffixes.push(format!("dtype={dtype}"));
            }
            "...".to_owned()
        } else if self.numel() == 0 {
            if self.dim() != 1 {
                suffixes.push(format!("size={}", python_tuple(self.shape())));
            }
            if dtype != default {
                suffixes.push(format!("dtype={dtype}"));
            }
            "[]".to_owned()
        } else {
            if options.edgeitems == 0 {
                suffixes.push(format!("size={}", python_tuple(self.shape())));
            }
            if dtype != default && !matches!(dtype, DType::Int64 | DType::Bool) {
                suffixes.push(format!("dtype={dtype}"));
            }
            format_values(&self.scalars()?, self.shape(), indent, &options)
        };
        if let Some(grad_fn) = self.grad_fn() {
            suffixes.push(format!("grad_fn=<{}>", grad_fn.name()));
        } else if self.requires_grad() {
            suffixes.push("requires_grad=True".into());
        }
        Ok(add_suffixes(
            &format!("{PREFIX}{body}"),
            &suffixes,
            indent,
            options.linewidth,
        ))
    }
}

/// Python's `str(tuple(shape))`: `(2, 3)`, `(4,)`, `()`.
pub fn python_tuple(shape: &[usize]) -> String {
    match shape {
        [one] => format!("({one},)"),
        _ => format!(
            "({})",
            shape
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

fn infer_dtype(values: &[Scalar], default: DType) -> DType {
    if !values.is_empty() && values.iter().all(|v| matches!(v, Scalar::Bool(_))) {
        DType::Bool
    } else if values.is_empty() || values.iter().any(|v| matches!(v, Scalar::Float(_))) {
        default
    } else {
        DType::Int64
    }
}

/// Dtypes a device cannot hold (`mps` has no float64).
pub(crate) fn check_device_dtype(device: Device, dtype: DType) -> Result<(), Error> {
    if device.kind == DeviceType::Mps && dtype == DType::Float64 {
        return Err(Error::MpsFloat64);
    }
    Ok(())
}
