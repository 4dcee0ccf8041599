"""Real-world items tsjit does not reproduce yet, with why (see README.md).

Each is a strict xfail in test_realworld.py: when a fix makes one pass, remove it here.
"""

from __future__ import annotations

# scripted with tsjit.jit.script
SCRIPT: dict[str, str] = {
    "detectron2_layers.assign_boxes_to_levels": "frontend: TorchScript classes (`@torch.jit.script` on a class, class-typed arguments) do not compile",
    "detectron2_layers.convert_boxes_to_pooler_format": "frontend: TorchScript classes (`@torch.jit.script` on a class, class-typed arguments) do not compile",
    "kornia_color.rgb_to_yuv420": "ops: `aten::unfold` has no kernel",
    "kornia_color.yuv420_to_rgb": "ops: `aten::repeat_interleave.self_int` has no kernel",
    "pytorch3d_rotations.rotation_6d_to_matrix": "ops: `torch.cross(a, b, dim=...)` (the `dim` keyword) is not accepted",
    "pytorch_test_models.TransformerNet": "numerics: float32 rounding through 16 convolutions and instance norms: PyTorch's float32 output is 2.8e-6 from its float64 one, tsjit's 3.5e-6 (4e-6 from PyTorch's, beyond the 1e-5 relative + 1e-6 tolerance on small outputs); in float64 they agree to 6e-15",
    "torchaudio_functional._median_smoothing": "ops: `aten::unfold` has no kernel",
    "torchaudio_functional._tik_reg": "ops: `aten::real` has no kernel",
    "torchaudio_functional.detect_pitch_frequency": "ops: `aten::unfold` has no kernel",
    "torchaudio_functional.fftconvolve": "ops: `aten::fft_rfft` has no kernel",
    "torchmetrics_functional._pairwise_cosine_similarity_update": "ops: `aten::fill_diagonal_` has no kernel",
    "torchmetrics_functional._pairwise_euclidean_distance_update": "ops: `aten::fill_diagonal_` has no kernel",
    "torchvision_detection_utils.BoxCoder.decode": "frontend: `torch.jit._script_if_tracing` is missing",
    "torchvision_detection_utils.Matcher.__call__": "frontend: `torch.jit._script_if_tracing` is missing",
    "torchvision_detection_utils.Matcher.__call__.low_quality": "frontend: `torch.jit._script_if_tracing` is missing",
    "torchvision_functional_tensor.posterize": "ops: `torch.nn.functional.grid_sample` is missing, so the file does not import",
    "torchvision_ops._onnx_merge_levels": "frontend: a call of a `@torch.jit.unused` function must raise in compiled code; it runs the function",
    "transformers_llama.LlamaRMSNorm": "numerics: the float64 case computes in float32 inside (`.to(torch.float32)`), and tsjit's float32 mean rounds differently from PyTorch's: 4e-8 in the float64 result, beyond the float64 tolerance",
    "transformers_llama.MishActivation": "frontend: a module attribute holding a torch function (`self.act = nn.functional.gelu`) does not compile",
    "transformers_llama.PytorchGELUTanh": "facade: `tsjit.__version__` is 0.1.0, and the module requires torch>=1.12",
}

# traced with tsjit.jit.trace
TRACE: dict[str, str] = {
    "pytorch3d_rotations.rotation_6d_to_matrix": "ops: `torch.cross(a, b, dim=...)` (the `dim` keyword) is not accepted",
    "pytorch_test_models.TransformerNet": "numerics: float32 rounding through 16 convolutions and instance norms: PyTorch's float32 output is 2.8e-6 from its float64 one, tsjit's 3.5e-6 (4e-6 from PyTorch's, beyond the 1e-5 relative + 1e-6 tolerance on small outputs); in float64 they agree to 6e-15",
    "pytorch_test_script_models.Traced": "frontend: `torch.jit.ScriptModule` with `@torch.jit.script_method` is missing",
}
