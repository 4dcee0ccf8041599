"""The items of the real-world corpus and their inputs (see README.md and spec.py).

`tools/record_realworld.py` runs each item under PyTorch and writes `recorded.jsonl`;
`integration_tests/test_realworld.py` runs them under tsjit against that recording.
"""

from __future__ import annotations

from spec import (
    boxes,
    case,
    dct,
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

# -- PyTorch: the TorchScript language tests of test/jit (checkScript functions) ---------

PT_LIST_DICT = "pytorch_test_list_dict"
add(
    fn(PT_LIST_DICT, "test_list_bool_conversion__if_predicate", case([1, 2, 3]), case([])),
    fn(PT_LIST_DICT, "test_list_bool_conversion__while_predicate", case([1, 2, 3]), case([])),
    fn(PT_LIST_DICT, "test_list_bool_conversion__ternary_predicate", case([1, 2, 3]), case([])),
    fn(PT_LIST_DICT, "test_in_check__int_in", case([1, 2, 3]), case([1, 3, 3])),
    fn(PT_LIST_DICT, "test_in_check__float_in", case([1.0, 2.0, 3.0]), case([1.0, 3.0, 3.0])),
    fn(PT_LIST_DICT, "test_in_check__str_in", case(["not", "here"]), case(["hi", "bye"]), case([])),
    fn(PT_LIST_DICT, "test_list_literal__reassign", case()),
    fn(PT_LIST_DICT, "test_list_literal__reassign_arity_change", case()),
    fn(PT_LIST_DICT, "test_list_literal__reassign_from_empty_builtin", case()),
    fn(PT_LIST_DICT, "test_list_variance__test_listliteral_is_typed_from_annotation", case()),
    fn(PT_LIST_DICT, "test_list_variance__test_listcomprehension_is_typed_from_annotation", case()),
    fn(PT_LIST_DICT, "test_list_keyword__foo", case()),
    fn(PT_LIST_DICT, "test_list_keyword__foo2", case()),
    fn(PT_LIST_DICT, "test_list_keyword__foo3", case()),
    fn(PT_LIST_DICT, "test_dict_keyword_with_kwargs__fn", case()),
    fn(PT_LIST_DICT, "test_dict_keyword_with_kwargs_using_container_values__fn", case()),
    fn(PT_LIST_DICT, "test_dict_keyword_with_iterable__fn", case()),
    fn(PT_LIST_DICT, "test_dict_keyword_with_empty_iterable__fn", case()),
    fn(PT_LIST_DICT, "test_dict_keyword_with_internal_aggregate_function__fn", case()),
    fn(PT_LIST_DICT, "test_dict_keyword_with_mapping__fn", case()),
    fn(PT_LIST_DICT, "test_dict_keyword_with_mapping_and_kwargs__fn", case()),
    fn(PT_LIST_DICT, "test_dict_keyword_with_dict_comprehension__fn", case()),
    fn(PT_LIST_DICT, "test_dict_keyword_with_dict_comprehension_and_kwargs__fn", case()),
    fn(PT_LIST_DICT, "test_dict_keyword_with_empty_dict_comprehension__fn", case()),
    fn(PT_LIST_DICT, "test_dict_keyword_is_correctly_typed__fn", case()),
    fn(PT_LIST_DICT, "test_dict_keyword_with_nested_call__fn", case()),
    fn(PT_LIST_DICT, "test_dict_keyword_with_previously_declared_variable__fn", case()),
    fn(PT_LIST_DICT, "test_dict_keyword_with_previously_declared_variable_and_kwargs__fn", case()),
    fn(PT_LIST_DICT, "test_min_bool_list__jit_min_list", case([True, False], [False, True])),
    fn(PT_LIST_DICT, "test_list_gather__index", case()),
    fn(PT_LIST_DICT, "test_list_gather__negative_index", case()),
    fn(PT_LIST_DICT, "test_list_gather__bad_index", case()),
    fn(PT_LIST_DICT, "test_list_gather__bad_negative_index", case()),
    fn(PT_LIST_DICT, "test_list_len__func", case()),
    fn(PT_LIST_DICT, "test_list_len__func2", case()),
    fn(PT_LIST_DICT, "test_list_ops__test_equality", case()),
    fn(PT_LIST_DICT, "test_list_ops__test_equality_str", case()),
    fn(PT_LIST_DICT, "test_list_ops__test_inequality", case()),
    fn(PT_LIST_DICT, "test_list_ops__test_inequality_str", case()),
    fn(PT_LIST_DICT, "test_list_ops__test_non_equality", case(), case()),
    fn(PT_LIST_DICT, "test_list_ops__test_list_equality_as_cond", case()),
    fn(PT_LIST_DICT, "test_list_ops__test_list_add", case()),
    fn(PT_LIST_DICT, "test_list_ops__test_list_add_empty", case()),
    fn(PT_LIST_DICT, "test_list_ops__test_tensor_list_equality", case()),
    fn(PT_LIST_DICT, "test_list_ops__test_invalid_list_equality", case()),
    fn(
        PT_LIST_DICT,
        "test_list_sort__test_fail",
        case([tensor([0, 0], "float32"), tensor([0, 0], "float32")]),
    ),
    fn(PT_LIST_DICT, "test_list_sort__test_sorted_copy", case()),
    fn(PT_LIST_DICT, "test_list_slice__test_regular_slice", case()),
    fn(PT_LIST_DICT, "test_list_slice__test_open_ended_slice", case()),
    fn(PT_LIST_DICT, "test_list_slice__test_open_ended_slice2", case()),
    fn(PT_LIST_DICT, "test_list_slice__test_negative_slice", case()),
    fn(PT_LIST_DICT, "test_list_slice__test_negative_slice2", case()),
    fn(PT_LIST_DICT, "test_list_slice__test_backward_slice", case(), case()),
    fn(
        PT_LIST_DICT,
        "test_slice_index__test_index_slice1",
        case(tensor([[[1, 11], [2, 22]], [[3, 33], [4, 44]], [[5, 55], [6, 66]]], "int64")),
    ),
    fn(
        PT_LIST_DICT,
        "test_slice_index__test_index_slice2",
        case(tensor([[[1, 11], [2, 22]], [[3, 33], [4, 44]], [[5, 55], [6, 66]]], "int64")),
    ),
    fn(
        PT_LIST_DICT,
        "test_slice_index__test_index_slice3",
        case(tensor([[[1, 11], [2, 22]], [[3, 33], [4, 44]], [[5, 55], [6, 66]]], "int64")),
    ),
    fn(
        PT_LIST_DICT,
        "test_slice_index__test_index_slice_empty_list",
        case(tensor([[[1, 11], [2, 22]], [[3, 33], [4, 44]], [[5, 55], [6, 66]]], "int64")),
    ),
    fn(
        PT_LIST_DICT,
        "test_slice_index__test_index_slice_out_of_bounds_index",
        case(tensor([[[1, 11], [2, 22]], [[3, 33], [4, 44]], [[5, 55], [6, 66]]], "int64")),
    ),
    fn(PT_LIST_DICT, "test_mutable_list_append__test_append", case()),
    fn(PT_LIST_DICT, "test_comprehensions_basic__comp", case([1, 2, 3])),
    fn(PT_LIST_DICT, "test_comprehensions_basic_float__comp", case([1.0, 2.0, 3.0])),
    fn(PT_LIST_DICT, "test_comprehension_out_type_not_in_type__list_cast", case()),
    fn(PT_LIST_DICT, "test_mutable_list_append_2__test_append_2", case()),
    fn(PT_LIST_DICT, "test_mutable_list_append_if__test_append_if", case()),
    fn(PT_LIST_DICT, "test_mutable_list_append_if_else__test_append_if_else", case()),
    fn(PT_LIST_DICT, "test_mutable_list_append_loop__test_append_loop", case()),
    fn(PT_LIST_DICT, "test_mutable_list_append_loop_if__test_append_loop_if", case()),
    fn(PT_LIST_DICT, "test_mutable_list_nested_loop__test_nested_loop", case()),
    fn(PT_LIST_DICT, "test_mutable_list_reverse_empty__test_reverse_empty", case()),
    fn(PT_LIST_DICT, "test_mutable_list_reverse__test_reverse", case()),
    fn(PT_LIST_DICT, "test_mutable_tensor_list_reverse__test_tensor_reverse", case()),
    fn(PT_LIST_DICT, "test_mutable_list_pop__test_pop", case()),
    fn(PT_LIST_DICT, "test_mutable_list_pop2__test_pop2", case()),
    fn(PT_LIST_DICT, "test_mutable_list_pop_at__test_pop_at", case()),
    fn(PT_LIST_DICT, "test_mutable_list_pop_at2__test_pop_at2", case()),
    fn(PT_LIST_DICT, "test_mutable_list_pop_at_negative__test_pop_at_negative", case()),
    fn(PT_LIST_DICT, "test_mutable_list_pop_at_negative2__test_pop_at_negative2", case()),
    fn(PT_LIST_DICT, "test_mutable_list_pop_slice__test_pop_slice", case()),
    fn(PT_LIST_DICT, "test_mutable_list_clear_empty__test_clear_empty", case()),
    fn(PT_LIST_DICT, "test_mutable_list_clear__test_clear", case()),
    fn(PT_LIST_DICT, "test_mutable_list_insert__test_list_insert", case()),
    fn(PT_LIST_DICT, "test_mutable_list_insert_negative__test_list_insert_negative", case()),
    fn(
        PT_LIST_DICT,
        "test_mutable_list_insert_neg_out_of_bounds__test_list_insert_neg_out_of_bounds",
        case(),
    ),
    fn(
        PT_LIST_DICT,
        "test_mutable_list_insert_out_of_bounds__test_list_insert_out_of_bounds",
        case(),
    ),
    fn(PT_LIST_DICT, "test_mutable_list_remove__test_list_remove", case()),
    fn(PT_LIST_DICT, "test_mutable_list_remove__test_str_list_remove", case()),
    fn(PT_LIST_DICT, "test_list_index__list_index", case()),
    fn(PT_LIST_DICT, "test_list_index__list_str_index", case()),
    fn(PT_LIST_DICT, "test_tensor_list_index__tensor_list_index", case()),
    fn(PT_LIST_DICT, "test_list_count__list_count", case()),
    fn(PT_LIST_DICT, "test_list_count__list_str_count", case()),
    fn(PT_LIST_DICT, "test_list_count_not_existing__list_count_not_existing", case()),
    fn(PT_LIST_DICT, "test_tensor_list_count__tensor_list_count", case()),
    fn(PT_LIST_DICT, "test_tensor_list_count_not_existing__tensor_list_count_not_existing", case()),
    fn(PT_LIST_DICT, "test_mutable_list_remove_tensor__test_list_remove_tensor", case()),
    fn(PT_LIST_DICT, "test_mutable_list_remove2__test_list_remove2", case()),
    fn(PT_LIST_DICT, "test_to_list__to_list_bool_0D", case(tensor(False, "bool"))),
    fn(
        PT_LIST_DICT,
        "test_to_list__to_list_bool_1D",
        case(tensor([True, False, True, False], "bool")),
    ),
    fn(
        PT_LIST_DICT,
        "test_to_list__to_list_bool_2D",
        case(tensor([[True, True, False], [False, True, False]], "bool")),
    ),
    fn(
        PT_LIST_DICT,
        "test_to_list__to_list_bool_3D",
        case(tensor([[[True, False], [False, True]], [[True, False], [False, False]]], "bool")),
    ),
    fn(PT_LIST_DICT, "test_to_list__to_list_int_0D", case(tensor(1, "int64"))),
    fn(PT_LIST_DICT, "test_to_list__to_list_int_1D", case(tensor([1, 2, 3, 4], "int64"))),
    fn(PT_LIST_DICT, "test_to_list__to_list_int_2D", case(tensor([[1, 2, 3], [3, 4, 5]], "int64"))),
    fn(
        PT_LIST_DICT,
        "test_to_list__to_list_int_3D",
        case(tensor([[[1, 2], [3, 4]], [[5, 6], [7, 8]]], "int64")),
    ),
    fn(
        PT_LIST_DICT,
        "test_to_list__to_list_float_1D",
        case(randn(5, dtype="float32")),
        case(randn(5, dtype="float64")),
    ),
    fn(
        PT_LIST_DICT,
        "test_to_list__to_list_float_2D",
        case(randn(5, 6, dtype="float32")),
        case(randn(5, 6, dtype="float64")),
    ),
    fn(
        PT_LIST_DICT,
        "test_to_list__to_list_float_3D",
        case(randn(5, 6, 7, dtype="float32")),
        case(randn(5, 6, 7, dtype="float64")),
    ),
    fn(
        PT_LIST_DICT,
        "test_to_list__to_list_type_annotation_wrong_dim",
        case(randn(5, dtype="float64")),
    ),
    fn(
        PT_LIST_DICT,
        "test_to_list__to_list_type_annotation_incorrect_scalar_type",
        case(tensor([1, 1, 1, 1, 1], "int64")),
    ),
    fn(
        PT_LIST_DICT,
        "test_dict_bool_conversion__if_predicate",
        case(dct((1, 2), (3, 5))),
        case(dct()),
    ),
    fn(
        PT_LIST_DICT,
        "test_dict_bool_conversion__while_predicate",
        case(dct((1, 2), (3, 5))),
        case(dct()),
    ),
    fn(
        PT_LIST_DICT,
        "test_dict_bool_conversion__ternary_predicate",
        case(dct((1, 2), (3, 5))),
        case(dct()),
    ),
    fn(PT_LIST_DICT, "test_del__fn", case(dct())),
    fn(PT_LIST_DICT, "test_dict_variance__test_dictliteral_is_typed_from_annotation", case()),
    fn(PT_LIST_DICT, "test_dict_variance__test_dictcomprehension_is_typed_from_annotation", case()),
    fn(PT_LIST_DICT, "test_update_existing_key__foo", case()),
    fn(
        PT_LIST_DICT,
        "test_aug_assign__aug_assign_dict_prim",
        case(dct(("a", 3.0), ("b", 2.0), ("c", 4.0))),
    ),
    fn(PT_LIST_DICT, "test_basic__simple", case(dct(("item", 20), ("other_item", 120)))),
    fn(PT_LIST_DICT, "test_basic__index", case(dct(("item", 20), ("other_item", 120)))),
    fn(PT_LIST_DICT, "test_basic__type_default", case()),
    fn(PT_LIST_DICT, "test_basic__list_of_dicts", case()),
    fn(PT_LIST_DICT, "test_view__fn", case(rand(2, 3), rand(2, 3))),
    fn(
        PT_LIST_DICT,
        "test_membership__fn",
        case(dct((1, 2), (3, 4)), 3),
        case(dct((1, 2), (3, 4)), 2),
        case(dct((1, 2), (3, 4)), 3),
        case(dct((1, 2), (3, 4)), 2),
    ),
    fn(PT_LIST_DICT, "test_dict_preserves_order__dict_ordering", case()),
)

PT_BUILTINS = "pytorch_test_builtins"
add(
    fn(PT_BUILTINS, "test_del__fn", case([1, 2, 3])),
    fn(PT_BUILTINS, "test_del_multiple_operands__fn", case([1, 2, 3])),
    fn(
        PT_BUILTINS,
        "test_tensor_item__test_scalar_cast",
        case(tensor(1.0, "float32")),
        case(tensor(1, "int64")),
    ),
)

PT_PYTHON_BUILTINS = "pytorch_test_python_builtins"
add(
    fn(PT_PYTHON_BUILTINS, "test_pow__func3", case(4, -0.5)),
    fn(PT_PYTHON_BUILTINS, "test_pow__func4", case()),
    fn(PT_PYTHON_BUILTINS, "test_adv_indexing_list__func1", case(rand(6, 2))),
    fn(PT_PYTHON_BUILTINS, "test_adv_indexing_list__func2", case(rand(6, 2))),
    fn(PT_PYTHON_BUILTINS, "test_adv_indexing_list__func3", case(rand(6, 2))),
    fn(PT_PYTHON_BUILTINS, "test_adv_indexing_list__func4", case(rand(6, 2))),
    fn(PT_PYTHON_BUILTINS, "test_adv_indexing_list__func5", case(rand(6, 2))),
)

PT_STRING_FORMATTING = "pytorch_test_string_formatting"
add(
    fn(PT_STRING_FORMATTING, "test_modulo_operator__fn", case(5, 2)),
    fn(
        PT_STRING_FORMATTING,
        "test_string_interpolation_with_string_placeholder_and_string_variable__fn",
        case("foo"),
    ),
    fn(
        PT_STRING_FORMATTING,
        "test_string_interpolation_with_string_placeholder_and_format_string_variable__fn",
        case("%s in template"),
    ),
    fn(
        PT_STRING_FORMATTING,
        "test_string_interpolation_with_double_percent_in_string__fn",
        case("foo"),
    ),
    fn(
        PT_STRING_FORMATTING,
        "test_string_interpolation_with_string_placeholder_and_digit_variable__fn",
        case(1),
    ),
    fn(
        PT_STRING_FORMATTING,
        "test_string_interpolation_with_digit_placeholder_and_digit_variable__fn",
        case(1),
    ),
    fn(
        PT_STRING_FORMATTING,
        "test_string_interpolation_with_alternate_digit_placeholder__fn",
        case(1),
    ),
    fn(
        PT_STRING_FORMATTING,
        "test_string_interpolation_with_lowercase_exponent_placeholder_and_digit_variable__fn",
        case(1),
    ),
    fn(
        PT_STRING_FORMATTING,
        "test_string_interpolation_with_capital_exponent_placeholder_and_digit_variable__fn",
        case(1),
    ),
    fn(
        PT_STRING_FORMATTING,
        "test_string_interpolation_with_float_placeholder_and_float_variable__fn",
        case(1.0),
    ),
    fn(
        PT_STRING_FORMATTING,
        "test_string_interpolation_with_float_placeholder_and_digit_variable__fn",
        case(1),
    ),
    fn(
        PT_STRING_FORMATTING,
        "test_string_interpolation_with_char_placeholder_and_char_variable__fn",
        case("a"),
    ),
    fn(
        PT_STRING_FORMATTING,
        "test_string_interpolation_with_char_placeholder_and_digit_variable__fn",
        case(97),
    ),
    fn(
        PT_STRING_FORMATTING,
        "test_string_interpolation_with_multiple_placeholders__fn",
        case("foo", 1, 1),
    ),
    fn(PT_STRING_FORMATTING, "test_string_interpolation_with_subscript__fn", case(["foo", "bar"])),
)

PT_TYPING = "pytorch_test_typing"
add(
    fn(
        PT_TYPING,
        "test_dict_in_not_in__test_in_dict",
        case(dct(("hi", 2), ("bye", 3))),
        case(dct(("bye", 3))),
    ),
    fn(
        PT_TYPING,
        "test_dict_in_not_in__test_not_in_dict",
        case(dct(("hello", 1), ("world", 2))),
        case(dct(("world", 2))),
    ),
    fn(
        PT_TYPING,
        "test_dict_in_not_in__test_dict_tensor_key",
        case(dct((tensor(3, "int64"), 1), (tensor(5, "int64"), 3)), tensor(4, "int64")),
        case(dct((tensor(3, "int64"), 1), (tensor(5, "int64"), 3)), tensor(3, "int64")),
        case(dct((tensor(3, "int64"), 1), (tensor(5, "int64"), 3)), tensor(3, "int64")),
        case(dct((tensor(3, "int64"), 1), (tensor(5, "int64"), 3)), tensor(5, "int64")),
    ),
    fn(PT_TYPING, "test_tuple_io__stuff", case(tup(rand(3), rand(3)))),
    fn(PT_TYPING, "test_tuple_keyword__bar", case()),
    fn(PT_TYPING, "test_tuple_create_return__stuff2", case(3)),
    fn(PT_TYPING, "test_list_io__stuff3", case([3, 2])),
    fn(PT_TYPING, "test_nested_list__foo", case(tup(1, [[1, 2], [3, 4]]))),
    fn(PT_TYPING, "test_list_sum__fn", case([1, 2, 3])),
    fn(PT_TYPING, "test_list_sum__fn1", case([1.0, 2.0, 3.0]), case([1, 2.8, 3])),
    fn(
        PT_TYPING,
        "test_list_sum__fn2",
        case([True, False, False]),
        case([False, False, False]),
        case([0, 1, 1, 0]),
    ),
    fn(PT_TYPING, "test_list_unification__fn", case()),
    fn(PT_TYPING, "test_list_unification__fn2", case(tensor([[1, 1], [1, 1]], "float32"))),
    fn(PT_TYPING, "test_sum_list_literal__sum_list", case()),
    fn(PT_TYPING, "test_for_in_string__test_strings", case("hello"), case("")),
    fn(
        PT_TYPING,
        "test_for_in_string__test_list_strings",
        case(["hello", "world"]),
        case(["hello", " ", "world", ""]),
    ),
    fn(
        PT_TYPING,
        "test_for_in_dict__test_dicts",
        case(dct(("a", 1), ("b", 2), ("c", 3))),
        case(dct(("a", 1), ("b", 2), ("c", 3))),
    ),
    fn(
        PT_TYPING,
        "test_for_tuple_unpack__for_tuple_unpack",
        case(tensor(3, "int64"), tensor(5, "int64")),
    ),
    fn(PT_TYPING, "test_for_tuple_unpack__nested_tuple_unpack", case([1, 3, 5], [2, 4, 6])),
    fn(PT_TYPING, "test_dict_comprehension__fn", case()),
    fn(PT_TYPING, "test_dict_comprehension_with_type_annotation__fn", case()),
    fn(
        PT_TYPING,
        "test_dict_comprehension_scope__comprehension_can_access_outer_scope_variables",
        case(),
    ),
    fn(PT_TYPING, "test_for_tuple_assign__test_simple_assign", case(tup(1, 2.5))),
    fn(PT_TYPING, "test_for_tuple_assign__test_tuple_assign", case(tup(tup(1, 2), tup(4, 7)))),
    fn(PT_TYPING, "test_singleton_tuple_unpack__foo", case(rand(3))),
    fn(
        PT_TYPING,
        "test_tuple_assignments__var_tuple_assign",
        case(tup(randn(1, 4), randn(3, 4)), randn(3, 4)),
    ),
    fn(
        PT_TYPING,
        "test_tuple_assignments__nested_tuple_assign",
        case(1, tup(2, tup(3, 4)), tup(5, 6)),
    ),
    fn(
        PT_TYPING,
        "test_tuple_assignments__subscript_tuple_assign",
        case([12, 7, 9, 11], tensor((3, 13, 17), "int64"), 0),
    ),
    fn(PT_TYPING, "test_tuple_assignments__star_tuple_assign", case()),
    fn(PT_TYPING, "test_multiple_assign__test", case()),
    fn(PT_TYPING, "test_optional_tuple__fn", case(tup(3, 4)), case()),
)

PT_UNION = "pytorch_test_union"
add(
    fn(PT_UNION, "test_check_union_annotation__test_func", case(5, 6)),
    fn(PT_UNION, "test_union_with_scalar_values__fn", case(1), case(1.0)),
    fn(
        PT_UNION,
        "test_union_with_collections__fn",
        case(dct(("foo", 1), ("bar", 2), ("baz", 3))),
        case([1, 2, 3]),
    ),
    fn(PT_UNION, "test_union_with_enum__fn", case("red")),
    fn(PT_UNION, "test_union_return_type__fn", case(1)),
    fn(PT_UNION, "test_union_as_annotation__fn", case()),
    fn(PT_UNION, "test_union_as_annotation_in_typed_container__fn", case()),
    fn(PT_UNION, "test_union_as_annotation_py2__fn", case()),
    fn(PT_UNION, "test_union_as_internal_tuple_type__fn", case()),
    fn(PT_UNION, "test_union_subclasses_larger_union__fn", case()),
    fn(PT_UNION, "test_union_as_dict_value__fn", case()),
    fn(PT_UNION, "test_union_type_refinement__fn", case("foo"), case(1)),
    fn(PT_UNION, "test_union_type_refinement_union_rhs__fn", case(1)),
    fn(
        PT_UNION,
        "test_union_type_refinement_tuple_rhs__fn",
        case(1),
        case(1.0),
        case(["a", "b", "c"]),
    ),
    fn(
        PT_UNION,
        "test_union_type_refinement_tuple_rhs_noncontained_type__fn",
        case(1),
        case(["a", "b", "c"]),
    ),
    fn(
        PT_UNION,
        "test_union_type_refinement_partial_static_refinement_tuple_rhs__fn",
        case([1, 2, 3]),
        case(1),
    ),
    fn(
        PT_UNION,
        "test_union_type_refinement_partial_static_refinement_union_rhs__fn",
        case([1, 2, 3]),
        case(1),
    ),
    fn(PT_UNION, "test_union_type_refinement_internal_declaration__fn", case(True), case(False)),
    fn(
        PT_UNION,
        "test_union_branching_with_union_return_and_homogenous_types__fn",
        case(1),
        case(8),
    ),
    fn(
        PT_UNION,
        "test_union_schema_matching_on_internal_type__fn",
        case([1, 2, 3]),
        case(dct(("foo", 1), ("bar", 2), ("baz", 3))),
    ),
    fn(PT_UNION, "test_union_subtractive_refinement__fn", case(1), case([1, 2, 3])),
    fn(PT_UNION, "test_union_subtractive_refinement_with_container__fn", case(1), case([1, 2, 3])),
    fn(PT_UNION, "test_union_memory_aliasing__fn", case()),
    fn(PT_UNION, "test_union_serialization_preserves_type_annotations__fn", case(1), case(8)),
)

PT_SLICE = "pytorch_test_slice"
add(
    fn(PT_SLICE, "test_slice_three_nones__three_nones", case([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])),
    fn(PT_SLICE, "test_slice_two_nones__two_nones", case([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])),
    fn(PT_SLICE, "test_slice_one_none__one_none", case([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])),
    fn(PT_SLICE, "test_slice_stop_only__fn", case([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])),
    fn(PT_SLICE, "test_slice_stop_only_with_nones__fn", case([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])),
    fn(PT_SLICE, "test_slice_start_stop__fn", case([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])),
    fn(PT_SLICE, "test_slice_start_stop_with_none__fn", case([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])),
    fn(PT_SLICE, "test_slice_start_stop_step__fn", case([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])),
    fn(PT_SLICE, "test_slice_string__fn", case("foo_bar")),
    fn(PT_SLICE, "test_slice_tensor__fn", case(tensor([1, 1, 1, 1, 1, 1, 1, 1, 1, 1], "float32"))),
    fn(
        PT_SLICE,
        "test_slice_tensor_multidim__fn",
        case(
            tensor(
                [
                    [1, 1, 1, 1, 1, 1, 1, 1, 1, 1],
                    [1, 1, 1, 1, 1, 1, 1, 1, 1, 1],
                    [1, 1, 1, 1, 1, 1, 1, 1, 1, 1],
                    [1, 1, 1, 1, 1, 1, 1, 1, 1, 1],
                    [1, 1, 1, 1, 1, 1, 1, 1, 1, 1],
                    [1, 1, 1, 1, 1, 1, 1, 1, 1, 1],
                    [1, 1, 1, 1, 1, 1, 1, 1, 1, 1],
                    [1, 1, 1, 1, 1, 1, 1, 1, 1, 1],
                    [1, 1, 1, 1, 1, 1, 1, 1, 1, 1],
                    [1, 1, 1, 1, 1, 1, 1, 1, 1, 1],
                ],
                "float32",
            )
        ),
    ),
    fn(
        PT_SLICE,
        "test_slice_tensor_multidim_with_dots__fn",
        case(
            tensor(
                [
                    [1, 1, 1, 1, 1, 1, 1, 1, 1, 1],
                    [1, 1, 1, 1, 1, 1, 1, 1, 1, 1],
                    [1, 1, 1, 1, 1, 1, 1, 1, 1, 1],
                    [1, 1, 1, 1, 1, 1, 1, 1, 1, 1],
                    [1, 1, 1, 1, 1, 1, 1, 1, 1, 1],
                    [1, 1, 1, 1, 1, 1, 1, 1, 1, 1],
                    [1, 1, 1, 1, 1, 1, 1, 1, 1, 1],
                    [1, 1, 1, 1, 1, 1, 1, 1, 1, 1],
                    [1, 1, 1, 1, 1, 1, 1, 1, 1, 1],
                    [1, 1, 1, 1, 1, 1, 1, 1, 1, 1],
                ],
                "float32",
            )
        ),
    ),
    fn(PT_SLICE, "test_slice_as_variable__fn", case([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])),
    fn(PT_SLICE, "test_slice_stop_clipped__fn", case([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])),
    fn(
        PT_SLICE,
        "test_slice_dynamic_index__t",
        case(
            tensor(
                [[[0, 0, 0], [0, 0, 0]], [[0, 0, 0], [0, 0, 0]], [[0, 0, 0], [0, 0, 0]]], "float32"
            )
        ),
    ),
    fn(PT_SLICE, "test_tuple_slicing__tuple_slice", case(tensor([1], "int64"))),
)

PT_WITH = "pytorch_test_with"
add(
    fn(PT_WITH, "test_with_as__test_basic", case(randn(2, 2))),
    fn(PT_WITH, "test_with_as__test_pass", case(randn(2, 2))),
    fn(PT_WITH, "test_with_as__test_serial", case(randn(2, 2))),
    fn(PT_WITH, "test_with_as__test_nested", case(randn(2, 2))),
    fn(PT_WITH, "test_with_as__test_combined", case(randn(2, 2))),
)

PT_MISC = "pytorch_test_misc"
add(
    fn(PT_MISC, "test_if_returning_any__if_function", case(randn(5))),
    fn(PT_MISC, "test_legacy_tensor_constructor__test_all_dtypes", case()),
    fn(PT_MISC, "test_legacy_tensor_constructor__no_inputs", case()),
)

PT_TENSOR_CREATION_OPS = "pytorch_test_tensor_creation_ops"
add(
    fn(PT_TENSOR_CREATION_OPS, "test_randperm_default_dtype__randperm", case(3)),
    fn(PT_TENSOR_CREATION_OPS, "test_randperm_specifed_dtype__randperm", case(3)),
    fn(PT_TENSOR_CREATION_OPS, "test_triu_indices_default_dtype__triu_indices", case(3, 3)),
    fn(PT_TENSOR_CREATION_OPS, "test_triu_indices_specified_dtype__triu_indices", case(3, 3)),
    fn(PT_TENSOR_CREATION_OPS, "test_tril_indices_default_dtype__tril_indices", case(3, 3)),
    fn(PT_TENSOR_CREATION_OPS, "test_tril_indices_specified_dtype__tril_indices", case(3, 3)),
)

PT_TENSOR_METHODS = "pytorch_test_tensor_methods"
add(
    fn(PT_TENSOR_METHODS, "test_getitem__tensor_getitem", case(rand(3, 4))),
)

PT_HASH = "pytorch_test_hash"
add(
    fn(
        PT_HASH,
        "test_hash_tuple__fn",
        case(tup(1, 2), tup(1, 2)),
        case(tup(1, 2), tup(3, 4)),
        case(tup(1, 2), tup(2, 1)),
    ),
    fn(
        PT_HASH,
        "test_hash_tensor__fn",
        case(tensor(1, "int64"), tensor(1, "int64")),
        case(tensor(1, "int64"), tensor(1, "int64")),
        case(tensor(1, "int64"), tensor(2, "int64")),
    ),
    fn(PT_HASH, "test_hash_none__fn", case()),
    fn(
        PT_HASH,
        "test_hash_bool__fn",
        case(True, False),
        case(True, True),
        case(False, True),
        case(False, False),
    ),
    fn(
        PT_HASH,
        "test_hash_float__fn",
        case(1.2345, 1.2345),
        case(1.2345, 6.789),
        case(1.2345, {"float": "inf"}),
        case({"float": "inf"}, {"float": "inf"}),
        case(1.2345, {"float": "nan"}),
        case({"float": "nan"}, {"float": "nan"}),
        case({"float": "nan"}, {"float": "inf"}),
    ),
    fn(
        PT_HASH,
        "test_hash_int__fn",
        case(123, 456),
        case(123, 123),
        case(123, -123),
        case(-123, -123),
        case(123, 0),
    ),
    fn(PT_HASH, "test_hash_string__fn", case("foo", "foo"), case("foo", "bar"), case("foo", "")),
)

PT_ISINSTANCE = "pytorch_test_isinstance"
add(
    fn(PT_ISINSTANCE, "test_int__int_test", case(1)),
    fn(PT_ISINSTANCE, "test_float__float_test", case(1.0)),
    fn(PT_ISINSTANCE, "test_bool__bool_test", case(False)),
    fn(PT_ISINSTANCE, "test_list__list_str_test", case(["1", "2", "3"])),
    fn(
        PT_ISINSTANCE,
        "test_list_tensor__list_tensor_test",
        case([tensor([1], "int64"), tensor([2], "int64"), tensor([3], "int64")]),
    ),
    fn(PT_ISINSTANCE, "test_dict__dict_str_int_test", case(dct(("a", 1), ("b", 2)))),
    fn(
        PT_ISINSTANCE,
        "test_dict_tensor__dict_int_tensor_test",
        case(dct((2, tensor([2], "int64")))),
    ),
    fn(PT_ISINSTANCE, "test_tuple__tuple_test", case(tup("a", 1, "b"))),
    fn(
        PT_ISINSTANCE,
        "test_tuple_tensor__tuple_tensor_test",
        case(tup(tensor([1], "int64"), tensor([[2], [3]], "int64"))),
    ),
    fn(
        PT_ISINSTANCE,
        "test_optional__optional_test",
        case(tensor([[1, 1, 1], [1, 1, 1], [1, 1, 1]], "float32")),
    ),
    fn(PT_ISINSTANCE, "test_optional_none__optional_test_none", case(None)),
    fn(
        PT_ISINSTANCE,
        "test_list_nested__list_nested",
        case([dct(("a", 1), ("b", 2)), dct(("aa", 11), ("bb", 22))]),
    ),
    fn(
        PT_ISINSTANCE,
        "test_dict_nested__dict_nested",
        case(dct(("a", tup("aa", "aa", "aa")), ("b", tup("bb", "bb", "bb")))),
    ),
    fn(
        PT_ISINSTANCE,
        "test_tuple_nested__tuple_nested",
        case(
            tup(
                dct(("a", tup("aa", "aa", "aa")), ("b", tup("bb", "bb", "bb"))),
                [True, False, True],
                None,
            )
        ),
    ),
    fn(PT_ISINSTANCE, "test_optional_nested__optional_nested", case(["a", "b", "c"])),
    fn(
        PT_ISINSTANCE,
        "test_list_tensor_type_true__list_tensor_type_true",
        case([rand(3, 3), rand(4, 3)]),
    ),
    fn(PT_ISINSTANCE, "test_tensor_type_false__list_tensor_type_false", case([1, 2, 3])),
    fn(PT_ISINSTANCE, "test_in_if__list_in_if", case([1, 2, 3])),
    fn(PT_ISINSTANCE, "test_if_else__list_in_if_else", case(tup("a", "b", "c"))),
    fn(
        PT_ISINSTANCE,
        "test_in_while_loop__list_in_while_loop",
        case([dct(("a", 1), ("b", 2)), dct(("aa", 11), ("bb", 22))]),
    ),
    fn(
        PT_ISINSTANCE,
        "test_type_refinement__type_refinement",
        case([rand(3, 3), rand(4, 3)]),
        case(dct(("1", "111"), ("2", "222"))),
    ),
    fn(PT_ISINSTANCE, "test_tuple_rhs__fn", case(2), case(["foo", "bar", "baz"])),
)
