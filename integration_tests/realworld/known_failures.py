"""Real-world items tsjit does not reproduce yet, with why (see README.md).

Each is a strict xfail in test_realworld.py: when a fix makes one pass, remove it here.
"""

from __future__ import annotations

# scripted with tsjit.jit.script
SCRIPT: dict[str, str] = {
    "detectron2_layers.assign_boxes_to_levels": "frontend: TorchScript classes (`@torch.jit.script` on a class, class-typed arguments) do not compile",
    "detectron2_layers.convert_boxes_to_pooler_format": "frontend: TorchScript classes (`@torch.jit.script` on a class, class-typed arguments) do not compile",
    "pytorch_test_models.TransformerNet": "runtime nn: `nn.ReflectionPad2d` is missing",
    "speechbrain_modules.LiGRU": "runtime nn: `nn.init.orthogonal_` is missing",
    "torchvision_detection_utils.BoxCoder.decode": "frontend: `torch.jit._script_if_tracing` is missing",
    "torchvision_detection_utils.Matcher.__call__": "frontend: `torch.jit._script_if_tracing` is missing",
    "torchvision_detection_utils.Matcher.__call__.low_quality": "frontend: `torch.jit._script_if_tracing` is missing",
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
    "torchvision_ops._onnx_merge_levels": "frontend: a call of a `@torch.jit.unused` function must raise in compiled code; it runs the function",
    "transformers_llama.LlamaRMSNorm": "numerics: the float64 case computes in float32 inside (`.to(torch.float32)`), and tsjit's float32 mean rounds differently from PyTorch's: 4e-8 in the float64 result, beyond the float64 tolerance",
    "transformers_llama.MishActivation": "frontend: a module attribute holding a torch function (`self.act = nn.functional.gelu`) does not compile",
    "transformers_llama.PytorchGELUTanh": "facade: `tsjit.__version__` is 0.1.0, and the module requires torch>=1.12",
}

# traced with tsjit.jit.trace
TRACE: dict[str, str] = {
    "pytorch_test_models.TransformerNet": "runtime nn: `nn.ReflectionPad2d` is missing",
    "pytorch_test_script_models.Traced": "frontend: `torch.jit.ScriptModule` with `@torch.jit.script_method` is missing",
    "torchvision_functional_tensor._hsv2rgb": "ops: `torch.nn.functional.grid_sample` is missing, so the file does not import",
    "torchvision_functional_tensor._rgb2hsv": "ops: `torch.nn.functional.grid_sample` is missing, so the file does not import",
    "torchvision_functional_tensor.hflip": "ops: `torch.nn.functional.grid_sample` is missing, so the file does not import",
    "torchvision_functional_tensor.vflip": "ops: `torch.nn.functional.grid_sample` is missing, so the file does not import",
}
