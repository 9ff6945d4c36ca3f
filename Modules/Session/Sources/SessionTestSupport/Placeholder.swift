// Placeholder: replaced when the SessionTestSupport target lands.
