"""Real-world items tsjit does not reproduce yet, with why (see README.md).

Each is a strict xfail in test_realworld.py: when a fix makes one pass, remove it here.
"""

from __future__ import annotations

# scripted with tsjit.jit.script
SCRIPT: dict[str, str] = {
    "detectron2_layers.convert_boxes_to_pooler_format": "ops: `aten::repeat_interleave.self_Tensor` has no kernel",
    "kornia_color.rgb_to_yuv420": "ops: `aten::unfold` has no kernel",
    "kornia_color.yuv420_to_rgb": "ops: `aten::repeat_interleave.self_int` has no kernel",
    "pytorch3d_rotations.rotation_6d_to_matrix": "ops: `torch.cross(a, b, dim=...)` (the `dim` keyword) is not accepted",
    "pytorch_test_models.TransformerNet": "runtime nn: `nn.ReflectionPad2d` is missing",
    "speechbrain_modules.LiGRU": "runtime nn: `nn.init.orthogonal_` is missing",
    "torchaudio_functional._median_smoothing": "ops: `aten::unfold` has no kernel",
    "torchaudio_functional._tik_reg": "ops: `aten::real` has no kernel",
    "torchaudio_functional.detect_pitch_frequency": "ops: `aten::unfold` has no kernel",
    "torchaudio_functional.fftconvolve": "ops: `aten::fft_rfft` has no kernel",
    "torchmetrics_functional._pairwise_cosine_similarity_update": "ops: `aten::fill_diagonal_` has no kernel",
    "torchmetrics_functional._pairwise_euclidean_distance_update": "ops: `aten::fill_diagonal_` has no kernel",
    "torchvision_functional_tensor._blend": "ops: `torch.nn.functional.grid_sample` is missing, so the file does not import",
    "torchvision_functional_tensor._compute_affine_output_size": "ops: `torch.nn.functional.grid_sample` is missing, so the file does not import",
    "torchvision_functional_tensor._create_identity_grid": "ops: `torch.nn.functional.grid_sample` is missing, so the file does not import",
    "torchvision_functional_tensor._get_gaussian_kernel1d": "ops: `torch.nn.functional.grid_sample` is missing, so the file does not import",
    "torchvision_functional_tensor._get_gaussian_kernel2d": "ops: `torch.nn.functional.grid_sample` is missing, so the file does not import",
    "torchvision_functional_tensor._hsv2rgb": "ops: `torch.nn.functional.grid_sample` is missing, so the file does not import",
    "torchvision_functional_tensor._max_value": "ops: `torch.nn.functional.grid_sample` is missing, so the file does not import",
    "torchvision_functional_tensor._parse_pad_padding": "ops: `torch.nn.functional.grid_sample` is missing, so the file does not import",
    "torchvision_functional_tensor._rgb2hsv": "ops: `torch.nn.functional.grid_sample` is missing, so the file does not import",
    "torchvision_functional_tensor.adjust_brightness": "ops: `torch.nn.functional.grid_sample` is missing, so the file does not import",
    "torchvision_functional_tensor.adjust_contrast": "ops: `torch.nn.functional.grid_sample` is missing, so the file does not import",
    "torchvision_functional_tensor.adjust_gamma": "ops: `torch.nn.functional.grid_sample` is missing, so the file does not import",
    "torchvision_functional_tensor.adjust_hue": "ops: `torch.nn.functional.grid_sample` is missing, so the file does not import",
    "torchvision_functional_tensor.adjust_saturation": "ops: `torch.nn.functional.grid_sample` is missing, so the file does not import",
    "torchvision_functional_tensor.adjust_sharpness": "ops: `torch.nn.functional.grid_sample` is missing, so the file does not import",
    "torchvision_functional_tensor.affine": "ops: `torch.nn.functional.grid_sample` is missing, so the file does not import",
    "torchvision_functional_tensor.autocontrast": "ops: `torch.nn.functional.grid_sample` is missing, so the file does not import",
    "torchvision_functional_tensor.convert_image_dtype": "ops: `torch.nn.functional.grid_sample` is missing, so the file does not import",
    "torchvision_functional_tensor.crop": "ops: `torch.nn.functional.grid_sample` is missing, so the file does not import",
    "torchvision_functional_tensor.elastic_transform": "ops: `torch.nn.functional.grid_sample` is missing, so the file does not import",
    "torchvision_functional_tensor.equalize": "ops: `torch.nn.functional.grid_sample` is missing, so the file does not import",
    "torchvision_functional_tensor.erase": "ops: `torch.nn.functional.grid_sample` is missing, so the file does not import",
    "torchvision_functional_tensor.gaussian_blur": "ops: `torch.nn.functional.grid_sample` is missing, so the file does not import",
    "torchvision_functional_tensor.get_dimensions": "ops: `torch.nn.functional.grid_sample` is missing, so the file does not import",
    "torchvision_functional_tensor.get_image_num_channels": "ops: `torch.nn.functional.grid_sample` is missing, so the file does not import",
    "torchvision_functional_tensor.get_image_size": "ops: `torch.nn.functional.grid_sample` is missing, so the file does not import",
    "torchvision_functional_tensor.hflip": "ops: `torch.nn.functional.grid_sample` is missing, so the file does not import",
    "torchvision_functional_tensor.invert": "ops: `torch.nn.functional.grid_sample` is missing, so the file does not import",
    "torchvision_functional_tensor.normalize": "ops: `torch.nn.functional.grid_sample` is missing, so the file does not import",
    "torchvision_functional_tensor.pad": "ops: `torch.nn.functional.grid_sample` is missing, so the file does not import",
    "torchvision_functional_tensor.perspective": "ops: `torch.nn.functional.grid_sample` is missing, so the file does not import",
    "torchvision_functional_tensor.posterize": "ops: `torch.nn.functional.grid_sample` is missing, so the file does not import",
    "torchvision_functional_tensor.resize": "ops: `torch.nn.functional.grid_sample` is missing, so the file does not import",
    "torchvision_functional_tensor.rgb_to_grayscale": "ops: `torch.nn.functional.grid_sample` is missing, so the file does not import",
    "torchvision_functional_tensor.rotate": "ops: `torch.nn.functional.grid_sample` is missing, so the file does not import",
    "torchvision_functional_tensor.solarize": "ops: `torch.nn.functional.grid_sample` is missing, so the file does not import",
    "torchvision_functional_tensor.vflip": "ops: `torch.nn.functional.grid_sample` is missing, so the file does not import",
    "transformers_llama.LlamaRMSNorm": "numerics: the float64 case computes in float32 inside (`.to(torch.float32)`), and tsjit's float32 mean rounds differently from PyTorch's: 4e-8 in the float64 result, beyond the float64 tolerance",
    "transformers_llama.PytorchGELUTanh": "facade: `tsjit.__version__` is 0.1.0, and the module requires torch>=1.12",
}

# traced with tsjit.jit.trace
TRACE: dict[str, str] = {
    "pytorch3d_rotations.rotation_6d_to_matrix": "ops: `torch.cross(a, b, dim=...)` (the `dim` keyword) is not accepted",
    "pytorch_test_models.TransformerNet": "runtime nn: `nn.ReflectionPad2d` is missing",
    "pytorch_test_script_models.Traced": "runtime nn: `nn.LSTMCell` is missing",
    "torchvision_functional_tensor._hsv2rgb": "ops: `torch.nn.functional.grid_sample` is missing, so the file does not import",
    "torchvision_functional_tensor._rgb2hsv": "ops: `torch.nn.functional.grid_sample` is missing, so the file does not import",
    "torchvision_functional_tensor.hflip": "ops: `torch.nn.functional.grid_sample` is missing, so the file does not import",
    "torchvision_functional_tensor.vflip": "ops: `torch.nn.functional.grid_sample` is missing, so the file does not import",
}
