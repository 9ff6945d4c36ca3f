// Placeholder: replaced when the Trace target lands.
