import StreamLensOptions

// Prints docs/reference/options.md, the option schema's reference page (scripts/generate/generate-reference.sh writes it).
print(OptionSchema.referencePage(), terminator: "")
