// Placeholder: replaced when the BoxProtocolTests tests land.
