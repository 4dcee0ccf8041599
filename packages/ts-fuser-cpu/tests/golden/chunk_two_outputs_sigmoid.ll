; ModuleID = "kernel"
target triple = "unknown-unknown-unknown"
target datalayout = ""

define internal i32 @"kernel.body"(ptr captures(none) noalias %".1", ptr captures(none) noalias %".2", ptr captures(none) %".3", ptr captures(none) %".4", ptr %".5", i64 %".6", i64 %".7")
{
entry:
  %".9" = getelementptr i64, ptr %".5", i64 1
  %".10" = load i64, ptr %".9", align 8
  %".11" = getelementptr i8, ptr %".3", i64 %".10"
  %".12" = getelementptr i64, ptr %".5", i64 2
  %".13" = load i64, ptr %".12", align 8
  %".14" = getelementptr i8, ptr %".3", i64 %".13"
  %".15" = getelementptr i64, ptr %".5", i64 3
  %".16" = load i64, ptr %".15", align 8
  %".17" = getelementptr i64, ptr %".5", i64 4
  %".18" = load i64, ptr %".17", align 8
  %".19" = getelementptr i64, ptr %".5", i64 5
  %".20" = load i64, ptr %".19", align 8
  %".21" = getelementptr i64, ptr %".5", i64 6
  %".22" = load i64, ptr %".21", align 8
  %".23" = getelementptr i64, ptr %".5", i64 7
  %".24" = load i64, ptr %".23", align 8
  %".25" = getelementptr i64, ptr %".5", i64 8
  %".26" = load i64, ptr %".25", align 8
  %".27" = getelementptr i64, ptr %".5", i64 9
  %".28" = load i64, ptr %".27", align 8
  %".29" = getelementptr i64, ptr %".5", i64 10
  %".30" = load i64, ptr %".29", align 8
  %".31" = icmp slt i64 %".6", %".7"
  br i1 %".31", label %"row.body", label %"row.exit"
row.body:
  %"row.i" = phi  i64 [%".6", %"entry"], [%".106", %"col.exit"]
  %"row.c0" = phi  i1 [0, %"entry"], [%".105", %"col.exit"]
  %".33" = mul i64 %"row.i", %".20"
  %".34" = add i64 0, %".33"
  %".35" = mul i64 %"row.i", %".24"
  %".36" = add i64 0, %".35"
  %".37" = mul i64 %"row.i", %".28"
  %".38" = add i64 0, %".37"
  %".39" = getelementptr float, ptr %".4", i64 %".34"
  %".40" = getelementptr float, ptr %".11", i64 %".36"
  %".41" = getelementptr float, ptr %".14", i64 %".38"
  %".42" = mul i64 %"row.i", %".18"
  %".43" = icmp slt i64 0, %".18"
  br i1 %".43", label %"col.body", label %"col.exit"
row.exit:
  %".109" = phi  i1 [0, %"entry"], [%".105", %"col.exit"]
  %".110" = zext i1 %".109" to i32
  ret i32 %".110"
col.body:
  %"col.i" = phi  i64 [0, %"row.body"], [%".100", %"col.body"]
  %"col.c0" = phi  i1 [0, %"row.body"], [%".98", %"col.body"]
  %"col.c1" = phi  i1 [0, %"row.body"], [%".99", %"col.body"]
  %".45" = add i64 %".42", %"col.i"
  %".46" = getelementptr float, ptr %".40", i64 %"col.i"
  %".47" = load float, ptr %".46", align 4
  %".48" = call float @"llvm.fabs.f32"(float %".47")
  %".49" = fneg float %".48"
  %".50" = fcmp uno float %".49", %".49"
  %".51" = fcmp ogt float %".49", 0x4056400000000000
  %".52" = select  i1 %".51", float 0x4056400000000000, float %".49"
  %".53" = fcmp olt float %".52", 0xc05a000000000000
  %".54" = select  i1 %".53", float 0xc05a000000000000, float %".52"
  %".55" = select  i1 %".50", float              0x0, float %".54"
  %".56" = fmul float %".55", 0x3ff7154760000000
  %".57" = call float @"llvm.rint.f32"(float %".56")
  %".58" = fneg float %".57"
  %".59" = call float @"llvm.fmuladd.f32"(float %".58", float 0x3fe62e4000000000, float %".55")
  %".60" = fneg float %".57"
  %".61" = call float @"llvm.fmuladd.f32"(float %".60", float 0x3eb7f7d1c0000000, float %".59")
  %".62" = call float @"llvm.fmuladd.f32"(float 0x3fc5555560000000, float %".61", float 0x3fe0000000000000)
  %".63" = call float @"llvm.fmuladd.f32"(float 0x3f81110c60000000, float %".61", float 0x3fa5554ea0000000)
  %".64" = call float @"llvm.fmuladd.f32"(float 0x3f2a1517a0000000, float %".61", float 0x3f56d43260000000)
  %".65" = fmul float %".61", %".61"
  %".66" = call float @"llvm.fmuladd.f32"(float %".63", float %".65", float %".62")
  %".67" = fmul float %".65", %".65"
  %".68" = call float @"llvm.fmuladd.f32"(float %".64", float %".67", float %".66")
  %".69" = fmul float %".61", %".61"
  %".70" = call float @"llvm.fmuladd.f32"(float %".68", float %".69", float %".61")
  %".71" = fadd float %".70", 0x3ff0000000000000
  %".72" = fptosi float %".57" to i32
  %".73" = ashr i32 %".72", 1
  %".74" = sub i32 %".72", %".73"
  %".75" = add i32 %".73", 127
  %".76" = shl i32 %".75", 23
  %".77" = bitcast i32 %".76" to float
  %".78" = fmul float %".71", %".77"
  %".79" = add i32 %".74", 127
  %".80" = shl i32 %".79", 23
  %".81" = bitcast i32 %".80" to float
  %".82" = fmul float %".78", %".81"
  %".83" = select  i1 %".50", float %".49", float %".82"
  %".84" = fcmp oge float %".47",              0x0
  %".85" = select  i1 %".84", float 0x3ff0000000000000, float %".83"
  %".86" = fadd float %".83", 0x3ff0000000000000
  %".87" = fdiv float %".85", %".86"
  %".88" = getelementptr float, ptr %".39", i64 %"col.i"
  %".89" = load float, ptr %".88", align 4
  %".90" = fmul float %".87", %".89"
  %".91" = getelementptr float, ptr %".41", i64 %"col.i"
  %".92" = load float, ptr %".91", align 4
  %".93" = fadd float %".90", %".92"
  %".94" = getelementptr float, ptr %".1", i64 %".45"
  store float %".90", ptr %".94", align 4
  %".96" = getelementptr float, ptr %".2", i64 %".45"
  store float %".93", ptr %".96", align 4
  %".98" = or i1 %"col.c0", 0
  %".99" = or i1 %"col.c1", 0
  %".100" = add i64 %"col.i", 1
  %".101" = icmp slt i64 %".100", %".18"
  br i1 %".101", label %"col.body", label %"col.exit"
col.exit:
  %".103" = phi  i1 [0, %"row.body"], [%".98", %"col.body"]
  %".104" = phi  i1 [0, %"row.body"], [%".99", %"col.body"]
  %".105" = or i1 %"row.c0", %".104"
  %".106" = add i64 %"row.i", 1
  %".107" = icmp slt i64 %".106", %".7"
  br i1 %".107", label %"row.body", label %"row.exit"
}

declare float @"llvm.fabs.f32"(float %".1")

declare float @"llvm.rint.f32"(float %".1")

declare float @"llvm.fmuladd.f32"(float %".1", float %".2", float %".3")

define i32 @"kernel"(ptr %".1", ptr %".2", ptr %".3", ptr %".4", ptr %".5", i64 %".6", i64 %".7")
{
entry:
  %".9" = getelementptr i8, ptr %".1", i64 16
  %".10" = load ptr, ptr %".9", align 8
  %".11" = getelementptr i8, ptr %".2", i64 16
  %".12" = load ptr, ptr %".11", align 8
  %".13" = getelementptr i8, ptr %".3", i64 16
  %".14" = load ptr, ptr %".13", align 8
  %".15" = getelementptr i8, ptr %".4", i64 16
  %".16" = load ptr, ptr %".15", align 8
  %".17" = call i32 @"kernel.body"(ptr %".14", ptr %".16", ptr %".10", ptr %".12", ptr %".5", i64 %".6", i64 %".7")
  ret i32 %".17"
}
