// Placeholder: replaced when the WebSocket target lands.
