//! What the GPU is: a plain, serialisable report of the adapter and what it supports, for the
//! lab's header, its device panel and the trace.

use serde::{Deserialize, Serialize};

/// The adapter behind the lab's GPU devices.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AdapterReport {
    /// The adapter's name (natively e.g. "llvmpipe (LLVM 15.0.6, 256 bits)"; in browsers the
    /// often-empty `GPUAdapterInfo.description`).
    pub name: String,
    /// Who made it: a browser's `GPUAdapterInfo.vendor` ("google"), natively the PCI vendor.
    pub vendor: String,
    /// The GPU family, where the platform tells it (browsers: `GPUAdapterInfo.architecture`,
    /// e.g. "swiftshader").
    pub architecture: String,
    /// The API wgpu drives it through: "WebGPU", "Vulkan", "Metal", "Dx12", "Gl".
    pub backend: String,
    /// "DiscreteGpu", "IntegratedGpu", "VirtualGpu", "Cpu" or "Other".
    pub device_type: String,
    /// A software adapter (a browser's fallback adapter, or a CPU implementation such as lavapipe).
    pub is_fallback: bool,
    pub driver: String,
    /// WGSL `f16` is available (`shader-f16`).
    pub shader_f16: bool,
    /// WGSL `f64` is available (native Vulkan/DX12 adapters only; never in browsers).
    pub shader_f64: bool,
    pub max_storage_buffer_binding_size: u64,
    pub max_buffer_size: u64,
}

impl AdapterReport {
    pub(super) async fn describe(adapter: &wgpu::Adapter, device: &wgpu::Device) -> Self {
        let info = adapter.get_info();
        let features = device.features();
        let limits = device.limits();
        let browser = browser::adapter_info().await;
        Self {
            name: info.name.clone(),
            vendor: browser
                .as_ref()
                .map(|b| b.vendor.clone())
                .unwrap_or_else(|| pci_vendor_name(info.vendor)),
            architecture: browser.map(|b| b.architecture).unwrap_or_default(),
            backend: backend_name(info.backend).to_owned(),
            device_type: format!("{:?}", info.device_type),
            is_fallback: info.device_type == wgpu::DeviceType::Cpu,
            driver: [info.driver.as_str(), info.driver_info.as_str()]
                .iter()
                .filter(|s| !s.is_empty())
                .copied()
                .collect::<Vec<_>>()
                .join(" "),
            shader_f16: features.contains(wgpu::Features::SHADER_F16),
            shader_f64: features.contains(wgpu::Features::SHADER_F64),
            max_storage_buffer_binding_size: limits.max_storage_buffer_binding_size,
            max_buffer_size: limits.max_buffer_size,
        }
    }

    /// Whether the adapter is a GPU emulated on the CPU (SwiftShader, lavapipe, llvmpipe, WARP):
    /// real kernels run, but slower than the CPU backend runs the same ops.
    pub fn is_software(&self) -> bool {
        let names = format!("{} {} {}", self.vendor, self.architecture, self.name).to_lowercase();
        self.is_fallback
            || self.device_type == "Cpu"
            || ["swiftshader", "lavapipe", "llvmpipe", "softpipe", "warp"]
                .iter()
                .any(|n| names.contains(n))
    }

    /// One line naming the adapter, e.g. "google swiftshader (WebGPU, fallback adapter)" or
    /// "llvmpipe (LLVM 15.0.6, 256 bits) (Vulkan, software)".
    pub fn summary(&self) -> String {
        let what = [
            self.vendor.as_str(),
            self.architecture.as_str(),
            self.name.as_str(),
        ]
        .iter()
        .filter(|s| !s.is_empty())
        .copied()
        .collect::<Vec<_>>()
        .join(" ");
        let what = if what.is_empty() {
            "unnamed adapter"
        } else {
            what.as_str()
        };
        let kind = match (self.is_fallback, self.backend.as_str()) {
            (true, "WebGPU") => ", fallback adapter",
            (true, _) => ", software",
            (false, _) => "",
        };
        format!("{what} ({}{kind})", self.backend)
    }
}

fn backend_name(backend: wgpu::Backend) -> &'static str {
    match backend {
        wgpu::Backend::BrowserWebGpu => "WebGPU",
        wgpu::Backend::Vulkan => "Vulkan",
        wgpu::Backend::Metal => "Metal",
        wgpu::Backend::Dx12 => "Dx12",
        wgpu::Backend::Gl => "Gl",
        wgpu::Backend::Noop => "Noop",
    }
}

fn pci_vendor_name(id: u32) -> String {
    match id {
        0 => String::new(),
        0x1002 => "AMD".into(),
        0x10DE => "NVIDIA".into(),
        0x8086 => "Intel".into(),
        0x106B => "Apple".into(),
        0x13B5 => "ARM".into(),
        0x5143 => "Qualcomm".into(),
        0x10005 => "Mesa".into(),
        other => format!("vendor {other:#x}"),
    }
}

/// What the browser tells about its adapter beyond what wgpu passes on (wgpu keeps only the
/// description): `GPUAdapterInfo.vendor` and `.architecture`.
#[cfg(target_arch = "wasm32")]
mod browser {
    use js_sys::{Function, Promise, Reflect};
    use wasm_bindgen::{JsCast, JsValue};
    use wasm_bindgen_futures::JsFuture;

    pub struct BrowserAdapterInfo {
        pub vendor: String,
        pub architecture: String,
    }

    /// `navigator.gpu.requestAdapter()` then `adapter.info`; `None` where any step is missing.
    pub async fn adapter_info() -> Option<BrowserAdapterInfo> {
        let get = |target: &JsValue, key: &str| {
            Reflect::get(target, &JsValue::from_str(key))
                .ok()
                .filter(|v| !v.is_undefined() && !v.is_null())
        };
        let gpu = get(&get(&js_sys::global().into(), "navigator")?, "gpu")?;
        let request: Function = get(&gpu, "requestAdapter")?.dyn_into().ok()?;
        let promise: Promise = request.call0(&gpu).ok()?.dyn_into().ok()?;
        let adapter = JsFuture::from(promise).await.ok()?;
        let info = get(&adapter, "info")?;
        let text = |key| {
            get(&info, key)
                .and_then(|v| v.as_string())
                .unwrap_or_default()
        };
        Some(BrowserAdapterInfo {
            vendor: text("vendor"),
            architecture: text("architecture"),
        })
    }
}

#[cfg(not(target_arch = "wasm32"))]
mod browser {
    pub struct BrowserAdapterInfo {
        pub vendor: String,
        pub architecture: String,
    }

    pub async fn adapter_info() -> Option<BrowserAdapterInfo> {
        None
    }
}
