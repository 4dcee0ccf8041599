"""The items of the real-world corpus and their inputs (see README.md and spec.py).

`tools/record_realworld.py` runs each item under PyTorch and writes `recorded.jsonl`;
`integration_tests/test_realworld.py` runs them under tsjit against that recording.
"""

from __future__ import annotations

from spec import (
    boxes,
    case,
    device,
    dtype,
    fn,
    img,
    meth,
    mod,
    obj,
    rand,
    randbool,
    randint,
    randn,
    ref,
    tensor,
    tup,
)

ITEMS: list[dict] = []


def add(*items: dict) -> None:
    ITEMS.extend(items)


# -- kornia: color conversions ---------------------------------------------------------

K = "kornia_color"
add(
    fn(K, "rgb_to_hsv", case(img(2, 3, 4, 5)), case(img(3, 2, 2), 1e-6), trace=True),
    fn(K, "hsv_to_rgb", case(rand(2, 3, 4, 5, high=6.28)), case(rand(3, 3, 3)), trace=True),
    mod(K, "RgbToHsv", [], case(img(1, 3, 4, 4)), case(img(2, 3, 2, 3)), trace=True),
    mod(K, "HsvToRgb", [], case(rand(1, 3, 4, 4)), trace=True),
    fn(K, "rgb_to_hls", case(img(2, 3, 4, 5)), case(img(3, 3, 3)), trace=True),
    fn(K, "hls_to_rgb", case(rand(2, 3, 4, 5)), trace=True),
    mod(K, "RgbToHls", [], case(img(1, 3, 4, 4))),
    fn(K, "rgb_to_bgr", case(img(2, 3, 2, 2)), trace=True),
    fn(K, "bgr_to_rgb", case(img(3, 4, 2)), trace=True),
    fn(K, "rgba_to_rgb", case(img(2, 4, 3, 3)), case(img(4, 2, 2))),
    fn(K, "rgb_to_linear_rgb", case(img(2, 3, 4, 4)), trace=True),
    fn(K, "linear_rgb_to_rgb", case(img(2, 3, 4, 4)), trace=True),
    fn(K, "_rgb_to_y", case(img(2, 2), img(2, 2), img(2, 2))),
    fn(K, "rgb_to_ycbcr", case(img(2, 3, 4, 4)), trace=True),
    fn(K, "rgb_to_y", case(img(2, 3, 4, 4))),
    fn(K, "ycbcr_to_rgb", case(img(2, 3, 4, 4)), trace=True),
    fn(K, "rgb_to_yuv", case(img(2, 3, 4, 4)), trace=True),
    fn(K, "rgb_to_yuv420", case(img(2, 3, 4, 6)), case(img(3, 2, 2))),
    fn(K, "yuv_to_rgb", case(img(2, 3, 4, 4))),
    fn(K, "yuv420_to_rgb", case(img(2, 1, 4, 6), rand(2, 2, 2, 3, low=-0.4, high=0.4))),
    fn(K, "rgb_to_xyz", case(img(2, 3, 4, 4)), trace=True),
    fn(K, "xyz_to_rgb", case(img(2, 3, 4, 4)), trace=True),
    fn(K, "rgb_to_lab", case(img(2, 3, 4, 4)), case(img(3, 2, 2)), trace=True),
    fn(
        K,
        "lab_to_rgb",
        case(rand(2, 3, 4, 4, low=0.0, high=80.0)),
        case(rand(3, 2, 2, low=-20.0, high=60.0), False),
    ),
    fn(K, "rgb_to_luv", case(img(2, 3, 4, 4)), trace=True),
    fn(K, "luv_to_rgb", case(rand(2, 3, 4, 4, low=1.0, high=80.0))),
    fn(K, "sepia_from_rgb", case(img(2, 3, 4, 4)), case(img(3, 2, 2), False)),
    mod(K, "Sepia", [], case(img(1, 3, 4, 4)), trace=True),
)

# -- PyTorch3D: rotation conversions ---------------------------------------------------

P3 = "pytorch3d_rotations"
add(
    fn(P3, "quaternion_to_matrix", case(randn(5, 4)), case(randn(2, 3, 4)), trace=True),
    fn(P3, "_copysign", case(randn(6), randn(6))),
    fn(P3, "_sqrt_positive_part", case(randn(6))),
    fn(
        P3,
        "matrix_to_quaternion",
        case(
            tensor(
                [
                    [[0.36, 0.48, -0.8], [-0.8, 0.6, 0.0], [0.48, 0.64, 0.6]],
                    [[1.0, 0.0, 0.0], [0.0, 0.0, -1.0], [0.0, 1.0, 0.0]],
                ]
            )
        ),
    ),
    fn(P3, "_axis_angle_rotation", case("X", randn(4)), case("Z", randn(2, 3))),
    fn(P3, "euler_angles_to_matrix", case(randn(4, 3), "XYZ"), case(randn(2, 3), "ZYZ")),
    fn(P3, "_index_from_letter", case("X"), case("Z")),
    fn(
        P3,
        "matrix_to_euler_angles",
        case(tensor([[[0.36, 0.48, -0.8], [-0.8, 0.6, 0.0], [0.48, 0.64, 0.6]]]), "XYZ"),
        case(tensor([[[0.36, 0.48, -0.8], [-0.8, 0.6, 0.0], [0.48, 0.64, 0.6]]]), "ZYX"),
    ),
    fn(P3, "standardize_quaternion", case(randn(5, 4))),
    fn(P3, "quaternion_raw_multiply", case(randn(3, 4), randn(3, 4)), trace=True),
    fn(P3, "quaternion_multiply", case(randn(3, 4), randn(3, 4))),
    fn(P3, "quaternion_invert", case(randn(3, 4))),
    fn(P3, "quaternion_apply", case(randn(3, 4), randn(3, 3))),
    fn(P3, "axis_angle_to_matrix", case(randn(4, 3)), case(randn(2, 3), True)),
    fn(
        P3,
        "matrix_to_axis_angle",
        case(tensor([[[0.36, 0.48, -0.8], [-0.8, 0.6, 0.0], [0.48, 0.64, 0.6]]])),
    ),
    fn(P3, "axis_angle_to_quaternion", case(randn(4, 3)), trace=True),
    fn(P3, "quaternion_to_axis_angle", case(randn(4, 4))),
    fn(P3, "rotation_6d_to_matrix", case(randn(3, 6)), trace=True),
    fn(P3, "matrix_to_rotation_6d", case(randn(2, 3, 3)), trace=True),
)

# -- timm: layers ------------------------------------------------------------------------

TM = "timm_layers"
add(
    fn(TM, "swish", case(randn(2, 5)), case(randn(3), True), trace=True),
    mod(TM, "Swish", [], case(randn(2, 5))),
    fn(TM, "mish", case(randn(2, 5)), trace=True),
    mod(TM, "Mish", [], case(randn(2, 5))),
    fn(TM, "sigmoid", case(randn(2, 5)), case(randn(4), True)),
    fn(TM, "tanh", case(randn(2, 5)), case(randn(4), True)),
    fn(TM, "hard_swish", case(randn(2, 5, std=3.0)), case(randn(6, std=3.0), True)),
    mod(TM, "HardSwish", [], case(randn(2, 5, std=3.0))),
    fn(TM, "hard_sigmoid", case(randn(2, 5, std=3.0)), case(randn(6, std=3.0), True)),
    mod(TM, "HardSigmoid", [], case(randn(2, 5, std=3.0))),
    fn(TM, "hard_mish", case(randn(2, 5, std=2.0)), case(randn(6, std=2.0), True)),
    mod(TM, "HardMish", [], case(randn(2, 5, std=2.0))),
    fn(TM, "gelu", case(randn(2, 5))),
    mod(TM, "GELU", [], case(randn(2, 5)), trace=True),
    fn(TM, "gelu_tanh", case(randn(2, 5))),
    mod(TM, "GELUTanh", [], case(randn(2, 5))),
    fn(TM, "quick_gelu", case(randn(2, 5))),
    mod(TM, "QuickGELU", [], case(randn(2, 5))),
    fn(TM, "drop_path", case(randn(2, 3)), case(randn(2, 3), 0.5, False)),
    mod(TM, "DropPath", [0.25], case(randn(2, 3, 4))),
    mod(TM, "Mlp", [8, 16], case(randn(2, 4, 8)), case(randn(3, 8)), trace=True),
    mod(TM, "GluMlp", [8, 16], case(randn(2, 4, 8))),
    mod(TM, "LayerScale", [8], case(randn(2, 3, 8))),
    mod(TM, "LayerScale2d", [4], case(randn(2, 4, 3, 3))),
    mod(TM, "GlobalResponseNorm", [4], case(randn(2, 3, 3, 4))),
    fn(TM, "fast_layer_norm", case(randn(2, 3, 6), [6], randn(6), randn(6), 1e-5)),
    fn(
        TM,
        "rms_norm",
        case(randn(2, 3, 6), [6], randn(6), 1e-6),
        case(randn(4, 5), [5], None, 1e-5),
    ),
    mod(TM, "LayerNorm2d", [4], case(randn(2, 4, 3, 3)), trace=True),
    fn(TM, "_is_contiguous", case(randn(2, 3))),
    fn(TM, "_layer_norm_cf", case(randn(2, 4, 3, 3), randn(4), randn(4), 1e-6)),
    mod(TM, "LayerNormExp2d", [4], case(randn(2, 4, 3, 3))),
    fn(TM, "rot", case(randn(2, 3, 8)), trace=True),
    fn(TM, "apply_rot_embed", case(randn(2, 3, 8), randn(3, 8), randn(3, 8))),
    fn(TM, "apply_rot_embed_cat", case(randn(2, 3, 8), randn(3, 16))),
    mod(
        TM,
        "Attention",
        [16],
        case(randn(2, 5, 16)),
        case(randn(1, 3, 16)),
        kwargs={"num_heads": 4},
        trace=True,
    ),
    mod(
        TM,
        "Attention",
        [16],
        case(randn(2, 5, 16)),
        kwargs={"num_heads": 2, "qkv_bias": True, "qk_norm": True},
        id="timm_layers.Attention.qk_norm",
    ),
)

# -- detectron2: layers and boxes --------------------------------------------------------

D2 = "detectron2_layers"
add(
    fn(D2, "shapes_to_tensor", case([3, 4, 5]), case([2], device("cpu"))),
    fn(D2, "cat", case([randn(2, 3), randn(1, 3)]), case([randn(2, 3)], 1)),
    fn(D2, "nonzero_tuple", case(randbool(3, 4)), case(tensor(1.0))),
    mod(D2, "FrozenBatchNorm2d", [3], case(randn(2, 3, 4, 4)), trace=True),
    fn(
        D2,
        "diou_loss",
        case(boxes(5), boxes(5)),
        case(boxes(4), boxes(4), "mean"),
        case(boxes(4), boxes(4), "sum"),
    ),
    fn(D2, "ciou_loss", case(boxes(5), boxes(5)), case(boxes(4), boxes(4), "mean")),
    fn(D2, "pairwise_intersection", case(obj("Boxes", boxes(4)), obj("Boxes", boxes(3)))),
    fn(D2, "pairwise_iou", case(obj("Boxes", boxes(4)), obj("Boxes", boxes(3)))),
    fn(D2, "pairwise_ioa", case(obj("Boxes", boxes(4)), obj("Boxes", boxes(3)))),
    fn(D2, "matched_pairwise_iou", case(obj("Boxes", boxes(4)), obj("Boxes", boxes(4)))),
    fn(
        D2,
        "assign_boxes_to_levels",
        case([obj("Boxes", boxes(4, 400.0)), obj("Boxes", boxes(3, 400.0))], 2, 5, 224, 4),
    ),
    fn(
        D2, "convert_boxes_to_pooler_format", case([obj("Boxes", boxes(3)), obj("Boxes", boxes(2))])
    ),
    meth(
        "detectron2_box_regression",
        "Box2BoxTransform",
        [tup(10.0, 10.0, 5.0, 5.0)],
        "get_deltas",
        case(boxes(4), boxes(4)),
    ),
    meth(
        "detectron2_box_regression",
        "Box2BoxTransform",
        [tup(1.0, 1.0, 1.0, 1.0)],
        "apply_deltas",
        case(randn(4, 8, std=0.5), boxes(4)),
    ),
    meth(D2, "Boxes", [boxes(4)], "area", case()),
    meth(D2, "Boxes", [boxes(4)], "nonempty", case(), case(2.0)),
    meth(D2, "Boxes", [boxes(4)], "get_centers", case()),
    meth(D2, "Boxes", [boxes(4, 20.0)], "inside_box", case(tup(12, 12)), case(tup(15, 15), 2)),
)

# -- torchmetrics: functional update steps ---------------------------------------------

TMX = "torchmetrics_functional"
add(
    fn(TMX, "_check_same_shape", case(randn(3), randn(3))),
    fn(TMX, "_safe_matmul", case(randn(3, 4), randn(2, 4))),
    fn(TMX, "_safe_xlogy", case(tensor([0.0, 1.0, 2.0]), tensor([0.0, 3.0, 0.5]))),
    fn(TMX, "_safe_divide", case(tensor([1.0, 2.0, 3.0]), tensor([0.0, 4.0, 0.5]))),
    fn(
        TMX,
        "_mean_squared_error_update",
        case(randn(6), randn(6), 1),
        case(randn(4, 2), randn(4, 2), 2),
    ),
    fn(TMX, "_mean_squared_log_error_update", case(rand(6), rand(6))),
    fn(TMX, "_cosine_similarity_update", case(randn(4, 3), randn(4, 3))),
    fn(TMX, "_explained_variance_update", case(randn(6), randn(6))),
    fn(TMX, "_check_input", case(randn(3, 4)), case(randn(3, 4), randn(2, 4), True)),
    fn(
        TMX,
        "_pairwise_cosine_similarity_update",
        case(randn(3, 4)),
        case(randn(3, 4), randn(2, 4), False),
    ),
    fn(
        TMX,
        "_pairwise_euclidean_distance_update",
        case(randn(3, 4)),
        case(randn(3, 4), randn(2, 4)),
    ),
)

# -- fairseq -----------------------------------------------------------------------------

FS = "fairseq_modules"
add(
    fn(FS, "make_positions", case(tensor([[1, 5, 6, 1], [7, 8, 9, 2]], "int64"), 1)),
    fn(FS, "strip_pad", case(tensor([3, 1, 4, 1, 5], "int64"), tensor(1, "int64"))),
    fn(FS, "gelu", case(randn(2, 5)), trace=True),
    mod(FS, "FairseqDropout", [0.1], case(randn(2, 3))),
    fn(FS, "rotate_half", case(randn(2, 3, 8))),
    fn(
        FS,
        "apply_rotary_pos_emb",
        case(randn(3, 2, 8), randn(3, 2, 8), randn(3, 1, 8), randn(3, 1, 8)),
        case(randn(3, 2, 8), randn(3, 2, 8), randn(5, 1, 8), randn(5, 1, 8), 1),
    ),
    mod(FS, "PositionalEncoding", [8, 0.0], case(randn(2, 5, 8)), kwargs={"max_len": 16}),
    mod(FS, "RelPositionalEncoding", [16, 8], case(randn(2, 5, 8))),
)

# -- SpeechBrain -------------------------------------------------------------------------

SB = "speechbrain_modules"
add(
    mod(
        SB,
        "LiGRU",
        [8],
        case(randn(2, 5, 6)),
        kwargs={"input_shape": [2, 5, 6], "num_layers": 2, "bidirectional": True},
    ),
    mod(SB, "BatchNorm1d", [], case(randn(2, 5, 6)), kwargs={"input_size": 6}),
    mod(SB, "LayerNorm", [], case(randn(2, 5, 6)), kwargs={"input_size": 6}),
    mod(SB, "InstanceNorm1d", [], case(randn(2, 5, 6)), kwargs={"input_size": 6}),
    mod(SB, "GroupNorm", [], case(randn(2, 5, 6)), kwargs={"input_size": 6, "num_groups": 2}),
    mod(SB, "DCT", [], case(randn(2, 5, 6)), kwargs={"input_size": 6, "n_out": 4}),
    mod(SB, "Deltas", [], case(randn(2, 7, 6)), kwargs={"input_size": 6}),
    mod(
        SB, "ContextWindow", [], case(randn(2, 5, 6)), kwargs={"left_frames": 1, "right_frames": 2}
    ),
)

# -- torchvision: box ops and detection helpers ------------------------------------------

TV = "torchvision_ops"
add(
    fn(TV, "_cat", case([randn(2, 3), randn(1, 3)]), case([randn(2, 3)])),
    fn(TV, "convert_boxes_to_roi_format", case([boxes(3), boxes(2)])),
    fn(TV, "check_roi_boxes_shape", case([boxes(3), boxes(2)]), case(randn(4, 5))),
    fn(TV, "_upcast", case(randn(3)), case(randint(0, 9, 3, dtype="int32"))),
    fn(TV, "_upcast_non_float", case(randn(3)), case(randint(0, 9, 3, dtype="int32"))),
    fn(TV, "_loss_inter_union", case(boxes(5), boxes(5))),
    fn(TV, "_box_cxcywh_to_xyxy", case(boxes(4)), trace=True),
    fn(TV, "_box_xyxy_to_cxcywh", case(boxes(4)), trace=True),
    fn(TV, "_box_xywh_to_xyxy", case(boxes(4))),
    fn(TV, "_box_xyxy_to_xywh", case(boxes(4))),
    fn(TV, "_box_cxcywhr_to_xywhr", case(rand(4, 5, high=10.0))),
    fn(TV, "_box_xywhr_to_cxcywhr", case(rand(4, 5, high=10.0))),
    fn(TV, "_box_xywhr_to_xyxyxyxy", case(rand(4, 5, high=10.0))),
    fn(TV, "_box_xyxyxyxy_to_xywhr", case(rand(4, 8, high=10.0))),
    fn(TV, "remove_small_boxes", case(boxes(6), 2.0)),
    fn(TV, "clip_boxes_to_image", case(boxes(5, 20.0), tup(8, 10))),
    fn(
        TV,
        "box_convert",
        case(boxes(4), "xyxy", "cxcywh"),
        case(boxes(4), "xywh", "xyxy"),
        case(boxes(3), "xyxy", "xyxy"),
        case(rand(3, 5, high=10.0), "cxcywhr", "xyxyxyxy"),
    ),
    fn(TV, "box_area", case(boxes(5)), case(boxes(3), "cxcywh"), trace=True),
    fn(TV, "_box_inter_union", case(boxes(4), boxes(3))),
    fn(TV, "generalized_box_iou", case(boxes(4), boxes(3)), trace=True),
    fn(
        TV,
        "sigmoid_focal_loss",
        case(randn(4, 3), rand(4, 3)),
        case(randn(4, 3), rand(4, 3), 0.5, 1.5, "mean"),
        case(randn(4, 3), rand(4, 3), -1.0, 2.0, "sum"),
    ),
    fn(TV, "generalized_box_iou_loss", case(boxes(4), boxes(4)), case(boxes(4), boxes(4), "mean")),
    fn(TV, "distance_box_iou_loss", case(boxes(4), boxes(4)), case(boxes(4), boxes(4), "sum")),
    fn(TV, "_diou_iou_loss", case(boxes(4), boxes(4))),
    fn(TV, "complete_box_iou_loss", case(boxes(4), boxes(4)), case(boxes(4), boxes(4), "mean")),
    mod(TV, "FrozenBatchNorm2d", [4], case(randn(2, 4, 3, 3)), trace=True),
    mod(TV, "SqueezeExcitation", [4, 2], case(randn(2, 4, 3, 3)), trace=True),
    mod(TV, "Permute", [[0, 2, 3, 1]], case(randn(2, 4, 3, 3))),
    fn(
        TV,
        "stochastic_depth",
        case(randn(2, 3), 0.5, "row", False),
        case(randn(2, 3), 0.0, "batch"),
    ),
    mod(TV, "StochasticDepth", [0.2, "row"], case(randn(2, 3))),
    fn(
        TV,
        "_onnx_merge_levels",
        case(
            tensor([1, 0, 1, 2], "int64"), [randn(1, 2, 2, 2), randn(2, 2, 2, 2), randn(1, 2, 2, 2)]
        ),
    ),
    meth(TV, "LevelMapper", [2, 5], "__call__", case([boxes(4, 400.0), boxes(3, 400.0)])),
    fn(TV, "_convert_to_roi_format", case([boxes(3), boxes(2)])),
    fn(TV, "_infer_scale", case(randn(1, 2, 8, 8), [32, 32]), case(randn(1, 2, 4, 5), [17, 19])),
    fn(
        "torchvision_detection_utils",
        "encode_boxes",
        case(boxes(4), boxes(4), tensor([10.0, 10.0, 5.0, 5.0])),
    ),
    meth(
        "torchvision_detection_utils",
        "BoxCoder",
        [tup(10.0, 10.0, 5.0, 5.0)],
        "encode_single",
        case(boxes(4), boxes(4)),
    ),
    meth(
        "torchvision_detection_utils",
        "BoxCoder",
        [tup(10.0, 10.0, 5.0, 5.0)],
        "decode_single",
        case(randn(4, 8, std=0.5), boxes(4)),
    ),
    meth(
        "torchvision_detection_utils",
        "BoxCoder",
        [tup(1.0, 1.0, 1.0, 1.0)],
        "decode",
        case(randn(5, 4, std=0.5), [boxes(3), boxes(2)]),
    ),
    meth("torchvision_detection_utils", "Matcher", [0.5, 0.3], "__call__", case(rand(3, 6))),
    meth(
        "torchvision_detection_utils",
        "Matcher",
        [0.5, 0.3, True],
        "__call__",
        case(rand(3, 6)),
        id="torchvision_detection_utils.Matcher.__call__.low_quality",
    ),
)

# -- torchvision: transforms on tensors ------------------------------------------------

FT = "torchvision_functional_tensor"
add(
    fn(FT, "get_dimensions", case(img(3, 4, 5)), case(img(4, 5))),
    fn(FT, "get_image_size", case(img(3, 4, 5))),
    fn(FT, "get_image_num_channels", case(img(2, 3, 4, 5)), case(img(4, 5))),
    fn(FT, "_max_value", case(dtype("uint8")), case(dtype("int16")), case(dtype("float32"))),
    fn(
        FT,
        "convert_image_dtype",
        case(img(3, 2, 2), dtype("uint8")),
        case(randint(0, 256, 3, 2, 2, dtype="uint8"), dtype("float32")),
        case(randint(0, 256, 3, 2, 2, dtype="uint8"), dtype("int32")),
    ),
    fn(FT, "vflip", case(img(3, 4, 5)), trace=True),
    fn(FT, "hflip", case(img(3, 4, 5)), trace=True),
    fn(FT, "crop", case(img(3, 6, 6), 1, 2, 3, 3), case(img(3, 4, 4), -1, 2, 4, 4)),
    fn(
        FT,
        "rgb_to_grayscale",
        case(img(3, 4, 5)),
        case(img(2, 3, 4, 4), 3),
        case(randint(0, 256, 3, 2, 2, dtype="uint8")),
    ),
    fn(
        FT,
        "adjust_brightness",
        case(img(3, 4, 4), 1.5),
        case(randint(0, 256, 3, 2, 2, dtype="uint8"), 0.5),
    ),
    fn(FT, "adjust_contrast", case(img(3, 4, 4), 1.5), case(img(1, 4, 4), 0.3)),
    fn(FT, "adjust_hue", case(img(3, 4, 4), 0.2), case(img(3, 3, 3), -0.4)),
    fn(FT, "adjust_saturation", case(img(3, 4, 4), 1.7)),
    fn(
        FT,
        "adjust_gamma",
        case(img(3, 4, 4), 2.2),
        case(randint(0, 256, 3, 2, 2, dtype="uint8"), 0.5, 1.2),
    ),
    fn(FT, "_blend", case(img(3, 2, 2), img(3, 2, 2), 0.3)),
    fn(FT, "_rgb2hsv", case(img(3, 4, 4)), trace=True),
    fn(FT, "_hsv2rgb", case(img(3, 4, 4)), trace=True),
    fn(FT, "_parse_pad_padding", case(2), case([1, 2]), case([1, 2, 3, 4])),
    fn(
        FT,
        "pad",
        case(img(3, 4, 4), 1),
        case(img(3, 4, 4), [1, 2], 0.5),
        case(img(1, 4, 5), [1, 2, 1, 0], 0, "reflect"),
        case(img(3, 3, 3), [2, 1], 0, "symmetric"),
        case(img(3, 3, 3), 1, 0, "edge"),
    ),
    fn(
        FT,
        "resize",
        case(img(3, 8, 8), [4, 4]),
        case(img(1, 3, 5, 5), [8, 6], "nearest"),
        case(img(3, 6, 6), [3, 5], "bilinear", False),
        case(img(3, 4, 4), [8, 8], "bicubic"),
    ),
    fn(
        FT,
        "affine",
        case(img(3, 6, 6), [1.0, 0.2, 0.5, -0.1, 1.0, 0.0]),
        case(img(3, 6, 6), [0.9, 0.0, 1.0, 0.0, 0.9, -1.0], "bilinear", [0.5, 0.5, 0.5]),
    ),
    fn(FT, "_compute_affine_output_size", case([0.8, -0.6, 0.0, 0.6, 0.8, 0.0], 10, 6)),
    fn(
        FT,
        "rotate",
        case(img(3, 6, 6), [0.8, -0.6, 0.0, 0.6, 0.8, 0.0]),
        case(img(3, 6, 8), [0.8, -0.6, 0.0, 0.6, 0.8, 0.0], "bilinear", True, 0.0),
    ),
    fn(FT, "perspective", case(img(3, 6, 6), [1.0, 0.1, 0.2, 0.05, 0.9, 0.1, 0.01, 0.02])),
    fn(FT, "_get_gaussian_kernel1d", case(5, 1.2, dtype("float32"), device("cpu"))),
    fn(FT, "_get_gaussian_kernel2d", case([3, 5], [0.8, 1.5], dtype("float32"), device("cpu"))),
    fn(
        FT,
        "gaussian_blur",
        case(img(3, 6, 6), [3, 3], [1.0, 1.0]),
        case(img(2, 3, 5, 5), [5, 3], [1.5, 0.7]),
    ),
    fn(FT, "invert", case(img(3, 4, 4)), case(randint(0, 256, 3, 2, 2, dtype="uint8"))),
    fn(FT, "posterize", case(randint(0, 256, 3, 4, 4, dtype="uint8"), 3)),
    fn(
        FT,
        "solarize",
        case(img(3, 4, 4), 0.6),
        case(randint(0, 256, 3, 2, 2, dtype="uint8"), 100.0),
    ),
    fn(FT, "adjust_sharpness", case(img(3, 5, 5), 2.0), case(img(3, 2, 2), 0.5)),
    fn(FT, "autocontrast", case(img(3, 4, 4)), case(randint(0, 256, 2, 3, 3, 3, dtype="uint8"))),
    fn(
        FT,
        "equalize",
        case(randint(0, 256, 3, 6, 6, dtype="uint8")),
        case(randint(0, 256, 2, 3, 4, 4, dtype="uint8")),
    ),
    fn(
        FT,
        "normalize",
        case(img(3, 4, 4), [0.5, 0.4, 0.3], [0.2, 0.25, 0.3]),
        case(img(2, 3, 2, 2), [0.5], [0.5], True),
    ),
    fn(FT, "erase", case(img(3, 5, 5), 1, 1, 2, 3, rand(3, 2, 3))),
    fn(FT, "_create_identity_grid", case([3, 4])),
    fn(FT, "elastic_transform", case(img(3, 5, 5), randn(1, 5, 5, 2, std=0.1))),
)

# -- torchaudio: functional ----------------------------------------------------------------

TA = "torchaudio_functional"
add(
    fn(
        TA,
        "amplitude_to_DB",
        case(rand(2, 4, 5, low=0.001, high=2.0), 10.0, 1e-10, 0.0),
        case(rand(2, 4, 5, low=0.001, high=2.0), 20.0, 1e-5, 1.0, 40.0),
    ),
    fn(TA, "DB_to_amplitude", case(randn(2, 5, std=10.0), 1.0, 0.5)),
    fn(TA, "_hz_to_mel", case(440.0), case(440.0, "slaney"), case(4000.0, "slaney")),
    fn(TA, "_mel_to_hz", case(rand(6, high=40.0)), case(rand(6, high=40.0), "slaney")),
    fn(
        TA,
        "_create_triangular_filterbank",
        case(tensor([0.0, 100.0, 200.0, 300.0, 400.0]), tensor([0.0, 120.0, 250.0, 400.0])),
    ),
    fn(
        TA,
        "melscale_fbanks",
        case(9, 0.0, 4000.0, 4, 8000),
        case(9, 100.0, 3000.0, 3, 8000, "slaney", "slaney"),
    ),
    fn(TA, "linear_fbanks", case(9, 0.0, 4000.0, 4, 8000)),
    fn(TA, "create_dct", case(4, 6, "ortho"), case(3, 5, None)),
    fn(TA, "mu_law_encoding", case(rand(2, 8, low=-1.0, high=1.0), 256)),
    fn(TA, "mu_law_decoding", case(randint(0, 256, 2, 8), 256)),
    fn(TA, "compute_deltas", case(randn(2, 3, 7)), case(randn(1, 2, 6), 3)),
    fn(
        TA,
        "_combine_max",
        case(
            tup(tensor([0.5, 0.9]), tensor([1, 2], "int64")),
            tup(tensor([0.6, 0.8]), tensor([3, 4], "int64")),
        ),
    ),
    fn(TA, "_median_smoothing", case(randint(0, 20, 2, 9), 3)),
    fn(TA, "detect_pitch_frequency", case(randn(1, 400), 8000, 0.01, 3, 85, 3400)),
    fn(TA, "sliding_window_cmn", case(randn(7, 3), 4, 2), case(randn(2, 7, 3), 4, 2, True, True)),
    fn(
        TA,
        "_get_sinc_resample_kernel",
        case(4, 3, 1, 6, 0.99, "sinc_interp_hann", None, device("cpu"), dtype("float32")),
    ),
    fn(
        TA,
        "resample",
        case(randn(1, 32), 4, 3),
        case(randn(2, 30), 3, 5, 4, 0.9, "sinc_interp_kaiser", 6.0),
    ),
    fn(TA, "_compute_mat_trace", case(randn(2, 3, 3))),
    fn(TA, "_tik_reg", case(randn(2, 3, 3))),
    fn(TA, "_check_shape_compatible", case(randn(2, 5), randn(2, 3))),
    fn(
        TA,
        "_apply_convolve_mode",
        case(randn(2, 9), 6, 4, "full"),
        case(randn(2, 9), 6, 4, "valid"),
        case(randn(2, 9), 6, 4, "same"),
    ),
    fn(TA, "fftconvolve", case(randn(2, 6), randn(2, 4)), case(randn(2, 6), randn(2, 4), "same")),
    fn(TA, "convolve", case(randn(2, 6), randn(2, 4)), case(randn(2, 6), randn(2, 4), "valid")),
    fn(TA, "add_noise", case(randn(2, 8), randn(2, 8), tensor([10.0, 3.0]))),
    fn(TA, "preemphasis", case(randn(2, 8)), case(randn(8), 0.5)),
    fn(TA, "_dB2Linear", case(6.0)),
    fn(
        TA,
        "contrast",
        case(rand(2, 8, low=-1.0, high=1.0)),
        case(rand(8, low=-1.0, high=1.0), 30.0),
    ),
    fn(
        TA,
        "dcshift",
        case(rand(8, low=-1.0, high=1.0), 0.3),
        case(rand(8, low=-1.0, high=1.0), 0.4, 0.05),
    ),
    fn(TA, "gain", case(randn(2, 8), 3.0)),
)

# -- transformers: activations and LLaMA blocks --------------------------------------------

HF = "transformers_llama"
add(
    mod(HF, "PytorchGELUTanh", [], case(randn(2, 5))),
    mod(HF, "NewGELUActivation", [], case(randn(2, 5)), trace=True),
    mod(HF, "GELUActivation", [], case(randn(2, 5))),
    mod(HF, "FastGELUActivation", [], case(randn(2, 5))),
    mod(HF, "QuickGELUActivation", [], case(randn(2, 5))),
    mod(HF, "AccurateGELUActivation", [], case(randn(2, 5))),
    mod(HF, "SiLUActivation", [], case(randn(2, 5))),
    mod(HF, "MishActivation", [], case(randn(2, 5))),
    mod(HF, "LinearActivation", [], case(randn(2, 5))),
    mod(HF, "ReLUSquaredActivation", [], case(randn(2, 5))),
    mod(
        HF,
        "LlamaRMSNorm",
        [8],
        case(randn(2, 3, 8)),
        case(randn(2, 3, 8, dtype="float64")),
        trace=True,
    ),
    fn(HF, "rotate_half", case(randn(2, 3, 8)), trace=True),
    fn(
        HF,
        "apply_rotary_pos_emb",
        case(
            randn(1, 2, 4, 8),
            randn(1, 2, 4, 8),
            randn(1, 1, 6, 8),
            randn(1, 1, 6, 8),
            tensor([[0, 1, 2, 3]], "int64"),
        ),
    ),
    fn(HF, "repeat_kv", case(randn(1, 2, 3, 4), 2), case(randn(1, 2, 3, 4), 1)),
)

# -- PyTorch: fastrnns cells and custom LSTMs ------------------------------------------------

FC = "fastrnns_cells"
add(
    fn(
        FC,
        "milstm_cell",
        case(
            randn(3, 4),
            randn(3, 5),
            randn(3, 5),
            randn(20, 4),
            randn(20, 5),
            randn(20),
            randn(20),
            randn(20),
            randn(20),
        ),
        trace=True,
    ),
    fn(
        FC,
        "lstm_cell",
        case(
            randn(3, 4),
            tup(randn(3, 5), randn(3, 5)),
            randn(20, 4),
            randn(20, 5),
            randn(20),
            randn(20),
        ),
    ),
    fn(
        FC,
        "flat_lstm_cell",
        case(
            randn(3, 4), randn(3, 5), randn(3, 5), randn(20, 4), randn(20, 5), randn(20), randn(20)
        ),
        trace=True,
    ),
    fn(
        FC,
        "premul_lstm_cell",
        case(randn(3, 20), tup(randn(3, 5), randn(3, 5)), randn(20, 5), randn(20), randn(20)),
    ),
    fn(
        FC,
        "premul_lstm_cell_no_bias",
        case(randn(3, 20), tup(randn(3, 5), randn(3, 5)), randn(20, 5), randn(20)),
    ),
    fn(
        FC,
        "gru_cell",
        case(randn(3, 4), randn(3, 5), randn(15, 4), randn(15, 5), randn(15), randn(15)),
        trace=True,
    ),
    fn(
        FC,
        "rnn_relu_cell",
        case(randn(3, 4), randn(3, 5), randn(5, 4), randn(5, 5), randn(5), randn(5)),
        trace=True,
    ),
    fn(
        FC,
        "rnn_tanh_cell",
        case(randn(3, 4), randn(3, 5), randn(5, 4), randn(5, 5), randn(5), randn(5)),
    ),
)

CL = "fastrnns_custom_lstms"
_state = lambda b, h: tup(randn(b, h), randn(b, h))  # noqa: E731
add(
    fn(CL, "reverse", case([randn(2), randn(3), randn(1)])),
    mod(CL, "LSTMCell", [4, 5], case(randn(3, 4), _state(3, 5))),
    mod(CL, "LayerNorm", [6], case(randn(3, 6))),
    mod(CL, "LayerNormLSTMCell", [4, 5], case(randn(3, 4), _state(3, 5))),
    mod(
        CL,
        "LayerNormLSTMCell",
        [4, 5, True],
        case(randn(3, 4), _state(3, 5)),
        id="fastrnns_custom_lstms.LayerNormLSTMCell.decomposed",
    ),
    mod(CL, "LSTMLayer", [ref("LSTMCell"), 4, 5], case(randn(6, 3, 4), _state(3, 5))),
    mod(CL, "ReverseLSTMLayer", [ref("LSTMCell"), 4, 5], case(randn(6, 3, 4), _state(3, 5))),
    mod(
        CL,
        "BidirLSTMLayer",
        [ref("LSTMCell"), 4, 5],
        case(randn(6, 3, 4), [_state(3, 5), _state(3, 5)]),
    ),
    mod(
        CL,
        "script_lstm",
        [4, 5, 2],
        case(randn(6, 3, 4), [_state(3, 5), _state(3, 5)]),
        id="fastrnns_custom_lstms.script_lstm",
    ),
    mod(
        CL,
        "script_lstm",
        [4, 5, 2],
        case(randn(6, 3, 4), [[_state(3, 5), _state(3, 5)], [_state(3, 5), _state(3, 5)]]),
        kwargs={"bidirectional": True},
        id="fastrnns_custom_lstms.script_lstm.bidirectional",
    ),
    mod(
        CL,
        "script_lstm",
        [4, 5, 2],
        case(randn(6, 3, 4), [_state(3, 5), _state(3, 5)]),
        kwargs={"dropout": True},
        id="fastrnns_custom_lstms.script_lstm.dropout",
    ),
    mod(
        CL,
        "script_lnlstm",
        [4, 5, 2],
        case(randn(6, 3, 4), [_state(3, 5), _state(3, 5)]),
        kwargs={"decompose_layernorm": True},
        id="fastrnns_custom_lstms.script_lnlstm",
    ),
)

# -- PyTorch: JIT test models (traced in PyTorch's own tests) --------------------------------

PM = "pytorch_test_models"
add(
    mod(
        PM,
        "MnistNet",
        [],
        case(rand(2, 1, 28, 28)),
        case(rand(1, 1, 28, 28)),
        case(rand(3, 1, 28, 28)),
        trace=True,
    ),
    mod(
        PM, "DCGANGenerator", [4, 2, 3], case(rand(1, 4, 1, 1)), case(rand(2, 4, 1, 1)), trace=True
    ),
    mod(
        PM,
        "DCGANDiscriminator",
        [3, 2],
        case(rand(1, 3, 64, 64, low=-1.0)),
        case(rand(3, 3, 64, 64, low=-1.0)),
        trace=True,
    ),
    mod(PM, "TransformerNet", [], case(rand(1, 3, 16, 16)), case(rand(2, 3, 12, 12)), trace=True),
    mod(PM, "ConvLayer", [3, 4, 3, 1], case(rand(2, 3, 6, 6)), trace=True),
    mod(PM, "ResidualBlock", [4], case(rand(2, 4, 5, 5)), trace=True),
    mod(
        PM,
        "UpsampleConvLayer",
        [3, 4, 3, 1],
        case(rand(2, 3, 4, 4)),
        kwargs={"upsample": 2},
        trace=True,
    ),
    mod(PM, "Policy", [], case(rand(1, 4)), case(rand(3, 4)), case(rand(5, 4)), trace=True),
    mod(
        PM,
        "SuperResolutionNet",
        [2],
        case(rand(2, 1, 6, 6)),
        case(rand(1, 1, 6, 6)),
        case(rand(3, 1, 5, 7)),
        trace=True,
    ),
    mod("pytorch_test_script_models", "Sequence", [], case(rand(3, 4))),
    mod("pytorch_test_script_models", "Traced", [], case(rand(3, 4)), trace=True),
    mod(
        PM,
        "VAE",
        [],
        case(rand(2, 1, 28, 28)),
        case(rand(1, 1, 28, 28)),
        case(rand(3, 1, 28, 28)),
        trace=True,
    ),
    mod("pytorch_test_script_models", "BasicBlock", [4, 4], case(randn(2, 4, 5, 5))),
)


# -- torchvision: classification models, built by their published builders ------------------

_TEN = {"num_classes": 10}
add(
    mod(
        "torchvision_resnet",
        "resnet18",
        [],
        case(img(1, 3, 64, 64)),
        case(img(2, 3, 48, 40)),
        kwargs=_TEN,
        trace=True,
    ),
    mod("torchvision_resnet", "resnext50_32x4d", [], case(img(1, 3, 64, 64)), kwargs=_TEN),
    mod(
        "torchvision_mobilenetv2",
        "mobilenet_v2",
        [],
        case(img(1, 3, 64, 64)),
        case(img(2, 3, 40, 48)),
        kwargs=_TEN,
        trace=True,
    ),
    mod("torchvision_mobilenetv3", "mobilenet_v3_small", [], case(img(1, 3, 64, 64)), kwargs=_TEN),
    mod("torchvision_efficientnet", "efficientnet_b0", [], case(img(1, 3, 64, 64)), kwargs=_TEN),
    mod("torchvision_convnext", "convnext_tiny", [], case(img(1, 3, 64, 64)), kwargs=_TEN),
    mod("torchvision_regnet", "regnet_y_400mf", [], case(img(1, 3, 64, 64)), kwargs=_TEN),
    mod(
        "torchvision_vit",
        "VisionTransformer",
        [],
        case(img(1, 3, 32, 32)),
        case(img(3, 3, 32, 32)),
        kwargs={
            "image_size": 32,
            "patch_size": 8,
            "num_layers": 2,
            "num_heads": 2,
            "hidden_dim": 32,
            "mlp_dim": 64,
            "num_classes": 10,
        },
    ),
    mod(
        "torchvision_swin",
        "SwinTransformer",
        [],
        case(img(1, 3, 32, 32)),
        kwargs={
            "patch_size": [4, 4],
            "embed_dim": 16,
            "depths": [2, 2],
            "num_heads": [2, 4],
            "window_size": [4, 4],
            "num_classes": 10,
        },
    ),
    mod(
        "torchvision_swin",
        "SwinTransformer",
        [],
        case(img(1, 3, 32, 32)),
        kwargs={
            "patch_size": [4, 4],
            "embed_dim": 16,
            "depths": [1, 1],
            "num_heads": [2, 2],
            "window_size": [4, 4],
            "num_classes": 10,
            "block": ref("SwinTransformerBlockV2"),
            "downsample_layer": ref("PatchMergingV2"),
        },
        id="torchvision_swin.SwinTransformer(v2)",
    ),
    mod(
        "torchvision_small_cnns",
        "squeezenet1_1",
        [],
        case(img(1, 3, 64, 64)),
        case(img(2, 3, 48, 48)),
        kwargs=_TEN,
        trace=True,
    ),
    mod(
        "torchvision_small_cnns",
        "shufflenet_v2_x0_5",
        [],
        case(img(1, 3, 64, 64)),
        case(img(2, 3, 48, 48)),
        kwargs=_TEN,
        trace=True,
    ),
    mod("torchvision_small_cnns", "mnasnet0_5", [], case(img(1, 3, 64, 64)), kwargs=_TEN),
    mod("torchvision_densenet", "densenet121", [], case(img(1, 3, 64, 64)), kwargs=_TEN),
    mod(
        "torchvision_googlenet",
        "googlenet",
        [],
        case(img(1, 3, 64, 64)),
        kwargs={"num_classes": 10, "aux_logits": False, "init_weights": False},
    ),
    mod(
        "torchvision_inception",
        "inception_v3",
        [],
        case(img(1, 3, 96, 96)),
        kwargs={"num_classes": 10, "aux_logits": False, "init_weights": False},
    ),
)

# -- torchvision: segmentation models (dictionaries of outputs), no pretrained backbone ------

_SEGMENTATION = {"num_classes": 3, "weights_backbone": None}
add(
    mod(
        "torchvision_segmentation",
        "lraspp_mobilenet_v3_large",
        [],
        case(img(1, 3, 64, 64)),
        kwargs=_SEGMENTATION,
    ),
    mod(
        "torchvision_segmentation",
        "deeplabv3_mobilenet_v3_large",
        [],
        case(img(1, 3, 64, 64)),
        kwargs={**_SEGMENTATION, "aux_loss": True},
    ),
    mod(
        "torchvision_segmentation",
        "fcn_resnet50",
        [],
        case(img(1, 3, 48, 48)),
        kwargs=_SEGMENTATION,
    ),
)
