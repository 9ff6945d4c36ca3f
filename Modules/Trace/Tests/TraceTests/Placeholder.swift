// Placeholder: replaced when the TraceTests tests land.
