"""AWS Bedrock Converse (provider id ``bedrock``): request, stream, profile; see DECISIONS.md."""
