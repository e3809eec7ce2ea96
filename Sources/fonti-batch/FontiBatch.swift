import FontiCore
print(FontiVersion.tool)
