// Placeholder: replaced when the SealInterface target lands.
