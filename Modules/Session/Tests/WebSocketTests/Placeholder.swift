// Placeholder: replaced when the WebSocketTests tests land.
