
#/host:metadata*	Hlo Proto
Æ
/device:GPU:0*
clock_rate*device_vendor*loop_transpose_fusion*HD@ grid:1280,1,1 block:256,1,1 private_mem:0 group_mem:0 occ_pct:0*name*
core_count*KGC grid:6240,1,1 block:256,1,1 private_mem:0 group_mem:2112 occ_pct:0*	x*LHD grid:219,40,1 block:256,1,1 private_mem:0 group_mem:49280 occ_pct:0*input_transpose_fusion*memory_size*HD@ grid:1024,1,1 block:256,1,1 private_mem:0 group_mem:0 occ_pct:0*		kernel_details*
program_id*	tf_op*
hlo_op*memory_bandwidth*compute_cap_major*
kernel*LHD grid:69840,1,1 block:256,1,1 private_mem:0 group_mem:8192 occ_pct:0* input_transpose_fusion.1*
XlaModule:*1-)jit(forward_3d_conv)/conv_general_dilated*
hlo_module*cudnn-conv.1*F
B
> grid:16,1,1 block:512,1,1 private_mem:0 group_mem:0 occ_pct:0*compute_cap_minor*jit_forward_3d_conv*correlation_id2*AMD2 †ñÄ2 ∞2	ÄÄ†õæM2	ÄÄÄ¯ˇ2 	2 5Stream #17(Kernel)’Õ7"»˝ˆÕÄ§Ÿ""	8
5Stream #15(Kernel)’Õ7"àΩØ◊Ä…£""	8
5Stream #16(Kernel)’Õ7"à≠Ò§¿ê°"6"	8
5Stream #18(Kernel)’Õ7"à…£≠ÄÔ¿"7"	8
""__amd_rocclr_copyBuffer.kd
‡/device:GPU:1*jit_forward_3d_conv*compute_cap_minor* input_transpose_fusion.1*
hlo_op*HD@ grid:1280,1,1 block:256,1,1 private_mem:0 group_mem:0 occ_pct:0*	x*cudnn-conv.1*L
H
D grid:69840,1,1 block:256,1,1 private_mem:0 group_mem:8192 occ_pct:0*device_vendor*
core_count*
hlo_module*memory_size*
XlaModule:*name*loop_transpose_fusion*LHD grid:219,40,1 block:256,1,1 private_mem:0 group_mem:49280 occ_pct:0*memory_bandwidth*compute_cap_major*
clock_rate*	tf_op*HD@ grid:1024,1,1 block:256,1,1 private_mem:0 group_mem:0 occ_pct:0*		kernel_details*correlation_id*
kernel*
program_id*input_transpose_fusion*1-)jit(forward_3d_conv)/conv_general_dilated*KGC grid:6240,1,1 block:256,1,1 private_mem:0 group_mem:2112 occ_pct:02*AMD2 †ñÄ2 ∞2	ÄÄ†õæM2	ÄÄÄ¯ˇ2 	2 TStream #19(Kernel)’Õ7"8∏ÃÿíbÄ¸§"´"	8"8"8"8"8" " loop_transpose_fusion.kd
‡/device:GPU:2*KGC grid:6240,1,1 block:256,1,1 private_mem:0 group_mem:2112 occ_pct:0*
clock_rate*
XlaModule:*memory_bandwidth*
hlo_module*
kernel*HD@ grid:1280,1,1 block:256,1,1 private_mem:0 group_mem:0 occ_pct:0*	tf_op*device_vendor*compute_cap_major*	x*1-)jit(forward_3d_conv)/conv_general_dilated*LHD grid:69840,1,1 block:256,1,1 private_mem:0 group_mem:8192 occ_pct:0*H
D
@ grid:1024,1,1 block:256,1,1 private_mem:0 group_mem:0 occ_pct:0*name*jit_forward_3d_conv*memory_size*correlation_id*
core_count*loop_transpose_fusion*compute_cap_minor*LHD grid:219,40,1 block:256,1,1 private_mem:0 group_mem:49280 occ_pct:0* input_transpose_fusion.1*cudnn-conv.1*input_transpose_fusion*		kernel_details*
program_id*
hlo_op2*AMD2 †ñÄ2 ∞2	ÄÄ†õæM2	ÄÄÄ¯ˇ2 	2 TStream #22(Kernel)’Õ7"8®‹–sÄã†"Ω"	8"8"8"8"8" " loop_transpose_fusion.kd
·/device:GPU:3*device_vendor*LHD grid:219,40,1 block:256,1,1 private_mem:0 group_mem:49280 occ_pct:0*
core_count*KGC grid:6240,1,1 block:256,1,1 private_mem:0 group_mem:2112 occ_pct:0*memory_size*
XlaModule:*
hlo_op*name* input_transpose_fusion.1*compute_cap_minor*compute_cap_major*
hlo_module*
kernel*	tf_op*	x*HD@ grid:1280,1,1 block:256,1,1 private_mem:0 group_mem:0 occ_pct:0*jit_forward_3d_conv*input_transpose_fusion*LHD grid:69840,1,1 block:256,1,1 private_mem:0 group_mem:8192 occ_pct:0*1-)jit(forward_3d_conv)/conv_general_dilated*correlation_id*H
D
@ grid:1024,1,1 block:256,1,1 private_mem:0 group_mem:0 occ_pct:0*memory_bandwidth*
clock_rate*loop_transpose_fusion*cudnn-conv.1*		kernel_details*
program_id2*AMD2 †ñÄ2 ∞2	ÄÄ†õæM2	ÄÄÄ¯ˇ2 	2 UStream #25(Kernel)’Õ7"9†úñá¢¿“ù"·"	8"8"8"8"8" " loop_transpose_fusion.kd
·/device:GPU:4*compute_cap_minor*
XlaModule:*
clock_rate*	x*HD@ grid:1024,1,1 block:256,1,1 private_mem:0 group_mem:0 occ_pct:0*
kernel*memory_bandwidth*LHD grid:219,40,1 block:256,1,1 private_mem:0 group_mem:49280 occ_pct:0*
core_count*name*1-)jit(forward_3d_conv)/conv_general_dilated*loop_transpose_fusion* input_transpose_fusion.1*H
D
@ grid:1280,1,1 block:256,1,1 private_mem:0 group_mem:0 occ_pct:0*
hlo_module*
program_id*jit_forward_3d_conv*		kernel_details*cudnn-conv.1*compute_cap_major*device_vendor*correlation_id*KGC grid:6240,1,1 block:256,1,1 private_mem:0 group_mem:2112 occ_pct:0*memory_size*
hlo_op*input_transpose_fusion*LHD grid:69840,1,1 block:256,1,1 private_mem:0 group_mem:8192 occ_pct:0*	tf_op2*AMD2 †ñÄ2 ∞2	ÄÄ†õæM2	ÄÄÄ¯ˇ2 	2 UStream #28(Kernel)’Õ7"9»ìØï∞¿á∂"ó"	8
"8"8"8"8" " loop_transpose_fusion.kd
·/device:GPU:5*1-)jit(forward_3d_conv)/conv_general_dilated*		kernel_details*compute_cap_major*loop_transpose_fusion*	tf_op*
kernel*device_vendor*input_transpose_fusion*
core_count*cudnn-conv.1*compute_cap_minor*LHD grid:69840,1,1 block:256,1,1 private_mem:0 group_mem:8192 occ_pct:0*	x*H
D
@ grid:1024,1,1 block:256,1,1 private_mem:0 group_mem:0 occ_pct:0* input_transpose_fusion.1*KGC grid:6240,1,1 block:256,1,1 private_mem:0 group_mem:2112 occ_pct:0*
clock_rate*HD@ grid:1280,1,1 block:256,1,1 private_mem:0 group_mem:0 occ_pct:0*memory_bandwidth*LHD grid:219,40,1 block:256,1,1 private_mem:0 group_mem:49280 occ_pct:0*jit_forward_3d_conv*correlation_id*name*
XlaModule:*memory_size*
hlo_op*
hlo_module*
program_id2*AMD2 †ñÄ2 ∞2	ÄÄ†õæM2	ÄÄÄ¯ˇ2 	2 UStream #31(Kernel)’Õ7"9ËÕ…¬´Ä±Ω"Ö"	8"8"8"8"8" " loop_transpose_fusion.kd
·/device:GPU:6*
core_count*correlation_id*
hlo_op*
program_id*
XlaModule:*device_vendor*loop_transpose_fusion*jit_forward_3d_conv*
clock_rate*cudnn-conv.1*
kernel*memory_size*LHD grid:219,40,1 block:256,1,1 private_mem:0 group_mem:49280 occ_pct:0*KGC grid:6240,1,1 block:256,1,1 private_mem:0 group_mem:2112 occ_pct:0*memory_bandwidth* input_transpose_fusion.1*
hlo_module*compute_cap_major*1-)jit(forward_3d_conv)/conv_general_dilated*LHD grid:69840,1,1 block:256,1,1 private_mem:0 group_mem:8192 occ_pct:0*		kernel_details*input_transpose_fusion*	tf_op*	x*H
D
@ grid:1280,1,1 block:256,1,1 private_mem:0 group_mem:0 occ_pct:0*name*compute_cap_minor*HD@ grid:1024,1,1 block:256,1,1 private_mem:0 group_mem:0 occ_pct:02*AMD2 †ñÄ2 ∞2	ÄÄ†õæM2	ÄÄÄ¯ˇ2 	2 U"Stream #34(Kernel)’Õ7"9–ßúËÄ¿‹Í"œ"	8
"8"8"8"8" " loop_transpose_fusion.kd
·/device:GPU:7*LHD grid:219,40,1 block:256,1,1 private_mem:0 group_mem:49280 occ_pct:0* input_transpose_fusion.1*cudnn-conv.1*L
H
D grid:69840,1,1 block:256,1,1 private_mem:0 group_mem:8192 occ_pct:0*1-)jit(forward_3d_conv)/conv_general_dilated*memory_bandwidth*		kernel_details*device_vendor*jit_forward_3d_conv*name*	x*
program_id*compute_cap_major*loop_transpose_fusion*memory_size*	tf_op*
hlo_op*
XlaModule:*input_transpose_fusion*HD@ grid:1024,1,1 block:256,1,1 private_mem:0 group_mem:0 occ_pct:0*HD@ grid:1280,1,1 block:256,1,1 private_mem:0 group_mem:0 occ_pct:0*
hlo_module*
clock_rate*correlation_id*compute_cap_minor*
kernel*KGC grid:6240,1,1 block:256,1,1 private_mem:0 group_mem:2112 occ_pct:0*
core_count2*AMD2 †ñÄ2 ∞2	ÄÄ†õæM2	ÄÄÄ¯ˇ2 	2 U%Stream #37(Kernel)’Õ7"9∞íÔÀ≥¿á∂"©"	8"8"8"8"8" " loop_transpose_fusion.kd
Ø"	/host:CPU*	GPU_7_bfc*allocator_name*
_p*&&input_transpose_fusion*	''x*correlation_id*fragmentation*bytes_available*"
"hlo_op*	data_type*bytes_allocated*_pt*##cudnn-conv.1*1!-!)jit(forward_3d_conv)/conv_general_dilated* ((input_transpose_fusion.1*,($kind:Unknown size:0 dest:512 async:1*_ct*	GPU_1_bfc*		peak_bytes_in_use*	GPU_6_bfc*	GPU_5_bfc*	GPU_3_bfc*	GPU_2_bfc*bytes_reserved*)
)kernel*	GPU_4_bfc*memcpy_details*
_c***loop_transpose_fusion*$$
hlo_module*jit_forward_3d_conv*allocation_bytes*	tf_op*	device_id*

requested_bytes*module_name*
XlaModule:*
id*%%
program_id*  name*	GPU_0_bfc*addrh«Host Threads/583’Õ7";XàÆª∂•ì‹"ùÙ"Û"8" 8)""8*"$8"% ZHost Threads/583g Host Threads/586’Õ7":X¯ƒ¸ÚaÄﬂ∂"ûÙ"´"8" 8)""8*"$8"% ZHost Threads/586gÕHost Threads/589’Õ7":Xàîã‘s¸õ"üÙ"Ω"8" 8)""8*"$8"% ZHost Threads/589h–Host Threads/592’Õ7";X¿û÷Á°‘…"†Ù"·"8" 8)""8*"$8"% ZHost Threads/592h”Host Threads/595’Õ7";X∏©öÉ∞¿∆˝"°Ù"ó"8" 8)""8*"$8"% ZHost Threads/595h÷Host Threads/598’Õ7";Xò◊ﬂ™´–¨‰"¢Ù"Ö"8" 8)""8*"$8"% ZHost Threads/598hŸHost Threads/601’Õ7";XÎú÷Ä∞§õ"£Ù"œ"8" 8)""8*"$8"% ZHost Threads/601h‹Host Threads/604’Õ7";X†Ê˚µ≥¿à‹"§Ù"©"8" 8)""8*"$8"% ZHost Threads/604NÍHost Threads/618’Õ7"!Uàõíü‡Ùò-"ùÙ""8ZHost Threads/618NÑHost Threads/644’Õ7"!U¿¡…ÖÄË∞"ùÙ"_"8ZHost Threads/644NìHost Threads/659’Õ7"!U∏‹Ÿ•¿Ö‘"ùÙ"A"8ZHost Threads/659NïHost Threads/661’Õ7"!U®¯‘ç†˝Œ!"ùÙ"<"8ZHost Threads/661NóHost Threads/663’Õ7"!U»—Ö¿‡¢®"ùÙ""8ZHost Threads/663N∆Host Threads/710’Õ7"!U®ﬁ»Ü–πå!"ùÙ"7"8ZHost Threads/710NŒHost Threads/718’Õ7"!U»áüÖ¿ÔÊ"ùÙ"6"8ZHost Threads/718j˜ıπ√ç…ß»Î#py_xla_execute/-1472503042444199177·°7"I¯‘–îòíÍ∆£Z#py_xla_execute/-1472503042444199177h´ƒˆ˚Óîº¿˚"py_xla_execute/-323994573397450197·°7"Iÿ«¨û»Ûî∫±Z"py_xla_execute/-323994573397450197iˇ≥òâ⁄ìõ°Ã#py_xla_execute/-3728298117240055297·°7"Ià‹”ç®Ñ‰árZ#py_xla_execute/-3728298117240055297j‚¬õπ©ˆ§‹®#py_xla_execute/-6289114484373528222·°7"I¯»øõÄÖ ¡©Z#py_xla_execute/-6289114484373528222jùœ˝¡°Œ´Ω®#py_xla_execute/-6306536523122645091·°7"IËÇıñ†ªÇ¨†Z#py_xla_execute/-6306536523122645091düÚ€õ’å†û!py_xla_execute/233202453396781343·°7"IàÖ˘ä∞‰¢£`Z!py_xla_execute/233202453396781343g¡„ÁßßàåŒL"py_xla_execute/5520340305237897665·°7"I®∑úô†©¸ÖÆZ"py_xla_execute/5520340305237897665f∫øîú©∂”˚W"py_xla_execute/6338620429921755066·°7"Iòï…ìÄÔﬂŒ~Z"py_xla_execute/6338620429921755066-ê† £ﬁûë∏WpythonËü"	¿”¯œÊ©Zpythony∆πäÏâîÔÈ›(tf_pjrt_thread_pool/-2462417173218157370·°7"Qÿ™ºë" " Z(tf_pjrt_thread_pool/-2462417173218157370yÅîß∏ÕŸÛÖÿ(tf_pjrt_thread_pool/-2878980157596907007·°7"Q®˝Åπ" " Z(tf_pjrt_thread_pool/-2878980157596907007y∏¸ªÄñ∏§·ø(tf_pjrt_thread_pool/-4628977207257137608·°7"Q∏¬„Ì" " Z(tf_pjrt_thread_pool/-4628977207257137608zÎ∑Ì¯õ‰Ø◊†(tf_pjrt_thread_pool/-6868342230032360469·°7"Q∞íìÖ" " KZ(tf_pjrt_thread_pool/-6868342230032360469yÎ˚¶˝§ùÂûì(tf_pjrt_thread_pool/-7836944042475012629·°7"Qà≤¥ü" " Z(tf_pjrt_thread_pool/-7836944042475012629yﬁÒ–πî ‹¥ë(tf_pjrt_thread_pool/-7968712372242859810·°7"Q¯õ∂¶" " Z(tf_pjrt_thread_pool/-7968712372242859810vﬂÈú¨–≈Œ«!'tf_pjrt_thread_pool/2418215489961931999·°7"Q¯≥—ƒ" " Z'tf_pjrt_thread_pool/2418215489961931999v¯¡åÕ›¢˘Òb'tf_pjrt_thread_pool/7125790917438677240·°7"Q¯«ÍÙ" " Z'tf_pjrt_thread_pool/7125790917438677240"XXhipModuleLaunchKernel"UUhipMemcpyDtoDAsync"9I5I1PjRtStreamExecutorLoadedExecutable::ExecuteHelper"$	 	$profiler.py:101 start_trace"'Q#QThreadpoolListener::StartRegion
eTask Environment*profile_stop_time*profile_start_time2ûÆô»èõ˛ 2û∑∆ñêõ˛ "tw003