import Foundation
print("vcproto")
