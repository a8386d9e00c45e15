import StreamLens
print("streamlens")
