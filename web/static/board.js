// The live board page (placeholder until the page lands).
