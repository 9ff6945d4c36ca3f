// Placeholder: replaced when the BoxProtocol target lands.
