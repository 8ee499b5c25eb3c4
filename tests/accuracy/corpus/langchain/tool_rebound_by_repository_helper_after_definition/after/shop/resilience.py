def with_fallback(tool):
    """The same tool, its errors handed back to the model instead of raised."""
    return tool.model_copy(update={"handle_tool_error": True})
