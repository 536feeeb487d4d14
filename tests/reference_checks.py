"""Names that MindSpore 2.10's CPU build cannot run, so no golden output can be
recorded for them (each was tried in a fresh MindSpore process, in PyNative and
under ``ms.jit``). They are checked instead by the named tests, which compare
msjax with a hand-written NumPy/JAX reference of MindSpore's documented formula.

``python -m msjax coverage`` runs these tests under its tracer and counts a name
as reference-checked only when its test passes and the name's own code ran in
it. Keys are namespace-qualified as in ``msjax/_data/mindspore_api.json``.
"""

_NO_CPU_KERNEL = "no CPU kernel in MindSpore 2.10"

REFERENCE_CHECKS = {
    "mindspore.Tensor.clone": ("test_array_ops.py::test_tensor_clone_is_an_independent_copy", _NO_CPU_KERNEL),
    "mindspore.Tensor.fill_": ("test_assign_ops.py::test_other_in_place_ops_on_parameters_inside_jit",
                               _NO_CPU_KERNEL),
    "mindspore.Tensor.repeat": ("test_array_ops.py::test_tensor_repeat_is_tile", _NO_CPU_KERNEL),
    "mindspore.Tensor.roll": ("test_array_ops.py::test_roll", _NO_CPU_KERNEL),
    "mindspore.Tensor.unique": ("test_array_ops.py::test_tensor_unique_and_nonzero_tuple", _NO_CPU_KERNEL),
    "mindspore.communication.init": (
        "test_communication.py::test_init_single_process",
        "MindSpore initialises only under an msrun/mpirun launcher (its errors are golden cases)"),
    "mindspore.nn.AvgPool1dExt": ("test_layers_state.py::test_ext_pooling_matches_functional_ops", _NO_CPU_KERNEL),
    "mindspore.nn.AvgPool2dExt": ("test_layers_state.py::test_ext_pooling_matches_functional_ops", _NO_CPU_KERNEL),
    "mindspore.nn.AvgPool3dExt": ("test_layers_state.py::test_ext_pooling_matches_functional_ops", _NO_CPU_KERNEL),
    "mindspore.nn.MaxPool2dExt": ("test_layers_state.py::test_ext_pooling_matches_functional_ops", _NO_CPU_KERNEL),
    "mindspore.nn.EmbeddingExt": ("test_layers_state.py::test_embedding_ext_and_layer_norm_ext", _NO_CPU_KERNEL),
    "mindspore.nn.LayerNormExt": ("test_layers_state.py::test_embedding_ext_and_layer_norm_ext", _NO_CPU_KERNEL),
    "mindspore.nn.L1LossExt": ("test_losses.py::test_smooth_l1_beta_zero_is_l1", _NO_CPU_KERNEL),
    "mindspore.nn.MatDet": ("test_layers_state.py::test_matrix_cells_against_numpy", _NO_CPU_KERNEL),
    "mindspore.nn.MatInverse": ("test_layers_state.py::test_matrix_cells_against_numpy", _NO_CPU_KERNEL),
    "mindspore.nn.MatrixDiag": ("test_layers_state.py::test_matrix_cells_against_numpy", _NO_CPU_KERNEL),
    "mindspore.nn.MatrixDiagPart": ("test_layers_state.py::test_matrix_cells_against_numpy", _NO_CPU_KERNEL),
    "mindspore.nn.MatrixSetDiag": ("test_layers_state.py::test_matrix_cells_against_numpy", _NO_CPU_KERNEL),
    "mindspore.nn.Roll": ("test_layers_state.py::test_roll_cell_and_embedding_lookup_max_norm", _NO_CPU_KERNEL),
    "mindspore.nn.Unfold": ("test_layers_state.py::test_unfold_extract_image_patches_layout", _NO_CPU_KERNEL),
    "mindspore.nn.MultilabelMarginLoss": ("test_losses.py::test_multilabel_margin_loss", _NO_CPU_KERNEL),
    "mindspore.nn.SoftMarginLoss": ("test_losses.py::test_soft_margin_loss", _NO_CPU_KERNEL),
    "mindspore.nn.TripletMarginLoss": ("test_losses.py::test_triplet_margin_loss", _NO_CPU_KERNEL),
    "mindspore.ops.multilabel_margin_loss": ("test_losses.py::test_multilabel_margin_loss", _NO_CPU_KERNEL),
    "mindspore.ops.soft_margin_loss": ("test_losses.py::test_soft_margin_loss", _NO_CPU_KERNEL),
    "mindspore.ops.triplet_margin_loss": ("test_losses.py::test_triplet_margin_loss", _NO_CPU_KERNEL),
    "mindspore.ops.roll": ("test_array_ops.py::test_roll", _NO_CPU_KERNEL),
    "mindspore.ops.Randperm": ("test_zoo_ops.py::test_randperm_is_a_padded_permutation",
                               "no CPU kernel in MindSpore 2.10 (Ascend/GPU only)"),
    "mindspore.ops.DropoutGenMask": ("test_zoo_ops.py::test_dropout_gen_and_do_mask", _NO_CPU_KERNEL),
    "mindspore.ops.DropoutDoMask": ("test_zoo_ops.py::test_dropout_gen_and_do_mask", _NO_CPU_KERNEL),
    "mindspore.ops.ScalarToArray": ("test_zoo_ops.py::test_scalar_to_array_and_float32_scalar_cast",
                                    "MindSpore 2.10's PyNative mode has no infer function for it"),
    "mindspore.ops.scalar_to_array": ("test_array_ops.py::test_scalar_to_array",
                                      "MindSpore 2.10 cannot infer ScalarToArray (PyNative and jit)"),
    "mindspore.ops.AllReduce": ("test_array_ops.py::test_allreduce_and_reduce_op",
                                "MindSpore crashes without a launcher; on one device it is the identity"),
    "mindspore.ops.FloatStatus": ("test_array_ops.py::test_float_status_and_npu_status", _NO_CPU_KERNEL),
    "mindspore.ops.NPUAllocFloatStatus": ("test_array_ops.py::test_float_status_and_npu_status", "Ascend only"),
    "mindspore.ops.NPUClearFloatStatus": ("test_array_ops.py::test_float_status_and_npu_status", "Ascend only"),
    "mindspore.ops.NPUGetFloatStatus": ("test_array_ops.py::test_float_status_and_npu_status", "Ascend only"),
    "mindspore.ops.FusedWeightScaleApplyMomentum": (
        "test_train_optim.py::test_fused_weight_scale_apply_momentum_and_nesterov_primitive", _NO_CPU_KERNEL),
    "mindspore.ops.BatchToSpace": ("test_ops_reference.py::test_batch_to_space_is_batch_to_space_nd", _NO_CPU_KERNEL),
    "mindspore.ops.SpaceToBatch": ("test_ops_reference.py::test_space_to_batch_is_space_to_batch_nd", _NO_CPU_KERNEL),
    "mindspore.ops.ExtractImagePatches": ("test_ops_reference.py::test_extract_image_patches_matches_unfold",
                                          _NO_CPU_KERNEL),
    "mindspore.ops.MatrixExp": ("test_ops_reference.py::test_matrix_exp", _NO_CPU_KERNEL),
    "mindspore.ops.matrix_exp": ("test_ops_reference.py::test_matrix_exp", _NO_CPU_KERNEL),
    "mindspore.ops.EuclideanNorm": ("test_ops_reference.py::test_euclidean_norm", _NO_CPU_KERNEL),
}
for _name in ("AllReduce", "FloatStatus", "NPUAllocFloatStatus", "NPUClearFloatStatus", "NPUGetFloatStatus",
              "FusedWeightScaleApplyMomentum", "BatchToSpace", "SpaceToBatch", "MatrixExp", "EuclideanNorm", "ExtractImagePatches"):
    REFERENCE_CHECKS["mindspore.ops.operations." + _name] = REFERENCE_CHECKS["mindspore.ops." + _name]
