"""``mindspore.mindrecord.common.exceptions``: MindRecord's exception classes, their
names, error numbers and messages as in MindSpore 2.10 (``str(e)`` is
``[ClassName]: message``)."""

SYS_ID = 0b00101010

_ERRORS = {
    "UnknownError": (0, "Unknown Error."), "ParamTypeError": (1, "Param type is error."),
    "ParamValueError": (2, "Param value is error."), "ParamMissError": (3, "Param missing."),
    "PathNotExistsError": (4, "Path does not exist."), "DbConnectionError": (5, "Db connection is error."),
    "MRMOpenError": (100, "MindRecord could not open."),
    "MRMOpenForAppendError": (101, "MindRecord could not open for append."),
    "MRMInvalidPageSizeError": (102, "Failed to set page size."),
    "MRMInvalidHeaderSizeError": (103, "Failed to set header size."),
    "MRMSetHeaderError": (104, "Failed to set header."), "MRMWriteDatasetError": (105, "Failed to write dataset."),
    "MRMCommitError": (107, "Failed to commit."), "MRMLaunchError": (108, "Failed to launch."),
    "MRMFinishError": (109, "Failed to finish."), "MRMCloseError": (110, "Failed to close."),
    "MRMAddSchemaError": (111, "Failed to add schema."), "MRMAddIndexError": (112, "Failed to add index field."),
    "MRMBuildSchemaError": (113, "Failed to build schema."), "MRMGetMetaError": (114, "Failed to get meta info."),
    "MRMIndexGeneratorError": (115, "Failed to create index generator."),
    "MRMGenerateIndexError": (116, "Failed to generate index."),
    "MRMInitSegmentError": (117, "Failed to initialize segment."),
    "MRMFetchCandidateFieldsError": (118, "Failed to fetch candidate category fields."),
    "MRMReadCategoryInfoError": (119, "Failed to read category information."),
    "MRMFetchDataError": (120, "Failed to fetch data by category."),
    "MRMInvalidSchemaError": (200, "Schema is error."), "MRMValidateDataError": (201, "Raw data is valid."),
    "MRMDefineIndexError": (202, "Index field is error."), "MRMDefineBlobError": (203, "Blob field is error."),
    "MRMUnsupportedSchemaError": (204, "Schema is not supported."),
    "MRMDefineCategoryError": (205, "Category field is error."),
}
EXCEPTIONS = {k: list(v) for k, v in _ERRORS.items()}


class MindRecordException(Exception):
    """MindRecord's base error: ``error_msg`` and a GE-style ``error_code``."""

    def __init__(self):
        super().__init__()
        number, msg = _ERRORS.get(type(self).__name__, _ERRORS["UnknownError"])
        self._error_msg = msg
        # runtime RT_HOST (1) << 30 | ERROR_CODE type (1) << 28 | common level << 25 | system << 17 | module << 12
        self._error_code = (1 << 30) | (1 << 28) | (SYS_ID << 17) | ((number // 100 + 1) << 12) | (number & 0xFFF)

    def __str__(self):
        return f"[{type(self).__name__}]: {self._error_msg}"

    @property
    def error_msg(self):
        return self._error_msg

    @error_msg.setter
    def error_msg(self, msg):
        self._error_msg = msg

    @property
    def error_code(self):
        return self._error_code


def _detail(template):
    def __init__(self, detail):
        MindRecordException.__init__(self)
        self.error_msg = template.format(detail)
    return __init__


def _define(name, doc, template=None, init=None):
    attrs = {"__doc__": doc, "__module__": __name__}
    if template is not None:
        attrs["__init__"] = _detail(template)
    if init is not None:
        attrs["__init__"] = init
    return type(name, (MindRecordException,), attrs)


def _param_type_init(self, param_name, expected_type):
    MindRecordException.__init__(self)
    self.error_msg = f"Invalid parameter type. '{param_name}' expect {expected_type} type."


def _fixed(msg):
    def __init__(self):
        MindRecordException.__init__(self)
        self.error_msg = msg
    return __init__


UnknownError = _define("UnknownError", "An unknown error.")
ParamValueError = _define("ParamValueError", "A parameter has an invalid value.", "Invalid parameter value. {}")
ParamTypeError = _define("ParamTypeError", "A parameter has an invalid type.", init=_param_type_init)
ParamMissError = _define("ParamMissError", "A required parameter is missing.", "Param missing. '{}' is required.")
PathNotExistsError = _define("PathNotExistsError", "A path does not exist.", "Invalid path. {}")
DbConnectionError = _define("DbConnectionError", "The index database cannot be used.",
                            "Db connection is error. Detail: {}")
MRMOpenError = _define("MRMOpenError", "A MindRecord file could not be opened.",
                       init=_fixed("MindRecord File could not open successfully."))
MRMOpenForAppendError = _define("MRMOpenForAppendError", "A MindRecord file could not be opened for appending.",
                                init=_fixed("MindRecord File could not open successfully for append."))
MRMInvalidSchemaError = _define("MRMInvalidSchemaError", "The schema given to ``add_schema`` is invalid.",
                                "Schema format is error. Detail: {}")
MRMValidateDataError = _define("MRMValidateDataError", "Raw data do not match the schema.",
                               "Raw data do not match the schema. Detail: {}")
MRMDefineIndexError = _define("MRMDefineIndexError", "An index field is not a primitive field.",
                              "Failed to define index field. Detail: {}")
MRMDefineBlobError = _define("MRMDefineBlobError", "A blob field is invalid.", "Failed to define blob field. Detail: {}")
MRMUnsupportedSchemaError = _define("MRMUnsupportedSchemaError", "The schema is not supported.",
                                    "Schema is not supported. Detail: {}")
MRMDefineCategoryError = _define("MRMDefineCategoryError", "A category field is invalid.",
                                 "Failed to define category field. Detail: {}")
for _name in ("MRMInvalidPageSizeError", "MRMInvalidHeaderSizeError", "MRMSetHeaderError", "MRMWriteDatasetError",
              "MRMCommitError", "MRMLaunchError", "MRMFinishError", "MRMCloseError", "MRMAddSchemaError",
              "MRMAddIndexError", "MRMBuildSchemaError", "MRMGetMetaError", "MRMIndexGeneratorError",
              "MRMGenerateIndexError", "MRMInitSegmentError", "MRMFetchCandidateFieldsError",
              "MRMReadCategoryInfoError", "MRMFetchDataError"):
    globals()[_name] = _define(_name, _ERRORS[_name][1])
del _name


__all__ = ["MindRecordException"] + list(_ERRORS)
